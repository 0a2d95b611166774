/**
 * One record, one resource (engine/identity.ts), and gone is gone (engine.ts): the rules every
 * resource kind runs under, on a small declaration whose "cloud" is an array in memory.
 */
import { z } from "zod";
import { kept } from "../../../provider/client/coalesce";
import { ApiError, type ApiErrorDetails } from "../../../provider/client/errors";
import { withRetries } from "../../../provider/client/retry";
import { defineResource, type OperationContext } from "../../../provider/engine/declaration";
import { Engine, RecordGoneError } from "../../../provider/engine/engine";
import { AmbiguousIdentityError, IdentityRegistry, KeyedQueue, type Identity } from "../../../provider/engine/identity";
import { DECLARATIONS } from "../../../provider/resources/registry";

const apiError = (details: Partial<ApiErrorDetails>): ApiError =>
  new ApiError({
    operation: "op",
    method: "POST",
    path: "/restapi/x/op",
    status: 503,
    errorCode: "SERVICE_UNAVAILABLE",
    message: "unavailable",
    retryable: true,
    ...details,
  });
const ambiguous = () => apiError({ ambiguous: true });

/** Public IPs of a VPC, in memory: nameless records under one parent. */
interface Ip {
  uuid: string;
  vpcUuid: string;
  isSourcenat?: boolean;
}
const ipIdentity: Identity<{ vpcUuid: string }, Ip> = {
  scope: (inputs) => inputs.vpcUuid,
  candidates: async () => [...cloud],
  matches: (ip, inputs) => ip.vpcUuid === inputs.vpcUuid && ip.isSourcenat !== true,
};
let cloud: Ip[] = [];
let counter = 0;
const acquire = (vpcUuid: string): Ip => {
  const ip = { uuid: `ip-${++counter}`, vpcUuid };
  cloud.push(ip);
  return ip;
};
const ctx = {} as OperationContext;
const tick = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  cloud = [];
  counter = 0;
});

describe("KeyedQueue", () => {
  test("tasks of one key run one at a time, in order; other keys run alongside", async () => {
    const queue = new KeyedQueue();
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name} start`);
      await tick();
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      queue.run("a", task("a1")),
      queue.run("a", task("a2")),
      queue.run("b", task("b1")),
    ]);
    expect(results).toEqual(["a1", "a2", "b1"]);
    expect(events.indexOf("a1 end")).toBeLessThan(events.indexOf("a2 start"));
    expect(events.indexOf("b1 start")).toBeLessThan(events.indexOf("a1 end"));
  });

  test("a failed task does not stop the next", async () => {
    const queue = new KeyedQueue();
    await expect(queue.run("a", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(queue.run("a", async () => "next")).resolves.toBe("next");
  });
});

describe("IdentityRegistry", () => {
  test("two ambiguous acquires on one VPC end with two resources holding two addresses", async () => {
    const registry = new IdentityRegistry();
    // Each acquire takes effect, then its answer is lost; verification must find its own address.
    const create = (what: string) =>
      registry.create(what, "PublicIpAddress", ipIdentity, ctx, { vpcUuid: "vpc-1" }, async (c) => {
        acquire("vpc-1");
        await tick();
        const found = await c.findCreated<Ip>();
        if (!found) throw new Error("not found");
        return { id: found.uuid };
      });
    const [a, b] = await Promise.all([create("a"), create("b")]);
    expect(new Set([a.id, b.id]).size).toBe(2);
    expect(cloud).toHaveLength(2);
  });

  test("a record that existed before the create, or that another resource holds, is never adopted", async () => {
    const registry = new IdentityRegistry();
    acquire("vpc-1"); // held by nobody, there before: not this create's
    const first = await registry.create("a", "PublicIpAddress", ipIdentity, ctx, { vpcUuid: "vpc-1" }, async () => ({
      id: acquire("vpc-1").uuid,
    }));
    const second = await registry.create("b", "PublicIpAddress", ipIdentity, ctx, { vpcUuid: "vpc-1" }, async (c) => {
      // The first create's address appears "new" only if the before-list were skipped: it is held.
      expect(c.pickCreated([...cloud])).toBeUndefined();
      return { id: acquire("vpc-1").uuid };
    });
    expect(first.id).not.toBe(second.id);
  });

  test("the source NAT address the service adds on its own is not a candidate", async () => {
    const registry = new IdentityRegistry();
    const result = registry.create("a", "PublicIpAddress", ipIdentity, ctx, { vpcUuid: "vpc-1" }, async (c) => {
      cloud.push({ uuid: "snat", vpcUuid: "vpc-1", isSourcenat: true });
      return { id: (await c.findCreated<Ip>())?.uuid ?? "none" };
    });
    await expect(result).resolves.toEqual({ id: "none" });
  });

  test("several new candidates: no guess, an error that says so", async () => {
    const registry = new IdentityRegistry();
    const result = registry.create(
      "PublicIpAddress web",
      "PublicIpAddress",
      ipIdentity,
      ctx,
      { vpcUuid: "v" },
      async (c) => {
        acquire("v");
        acquire("v"); // made by someone else meanwhile (another process)
        await c.findCreated();
        return { id: "x" };
      },
    );
    await expect(result).rejects.toThrow(AmbiguousIdentityError);
    await expect(result).rejects.toThrow(/2 new records could each be this create's/);
  });

  test("ids are held per type: a static NAT may carry its address's id; a released id is free again", async () => {
    const registry = new IdentityRegistry();
    const keyed: Identity<{ ip: string }> = { scope: (i) => i.ip };
    await registry.create("ip", "PublicIpAddress", keyed, ctx, { ip: "ip-9" }, async () => ({ id: "ip-9" }));
    await registry.create("nat", "StaticNat", keyed, ctx, { ip: "ip-9" }, async () => ({ id: "ip-9" }));
    await expect(
      registry.create("nat2", "StaticNat", keyed, ctx, { ip: "ip-9" }, async () => ({ id: "ip-9" })),
    ).rejects.toThrow(/another resource of this stack holds/);
    registry.release("StaticNat", "ip-9");
    await expect(
      registry.create("nat3", "StaticNat", keyed, ctx, { ip: "ip-9" }, async () => ({ id: "ip-9" })),
    ).resolves.toEqual({ id: "ip-9" });
  });
});

describe("a resend answered 409 after an ambiguous failure", () => {
  const policy = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 };
  const conflict = () => apiError({ status: 409, errorCode: "CONFLICT", retryable: false, message: "already covers" });

  test("adopts the record when verification now finds it (it became visible late)", async () => {
    let verifications = 0;
    const answers = [ambiguous(), conflict()];
    const result = await withRetries(
      async () => {
        throw answers.shift();
      },
      {
        mutating: true,
        policy,
        sleep: async () => undefined,
        verify: async () => (++verifications === 1 ? undefined : { uuid: "rule-1" }),
      },
    );
    expect(result).toEqual({ uuid: "rule-1" });
    expect(verifications).toBe(2);
  });

  test("keeps the 409 when verification still finds nothing of its own", async () => {
    const answers = [ambiguous(), conflict()];
    await expect(
      withRetries(
        async () => {
          throw answers.shift();
        },
        { mutating: true, policy, sleep: async () => undefined, verify: async () => undefined },
      ),
    ).rejects.toMatchObject({ status: 409 });
  });

  test("a 409 to a first request is never taken for success", async () => {
    let verifications = 0;
    await expect(
      withRetries(
        async () => {
          throw conflict();
        },
        {
          mutating: true,
          policy,
          sleep: async () => undefined,
          verify: async () => {
            verifications++;
            return { uuid: "someone-elses" };
          },
        },
      ),
    ).rejects.toMatchObject({ status: 409 });
    expect(verifications).toBe(0);
  });

  test("a verification that refuses to guess is the error the caller sees", async () => {
    await expect(
      withRetries(
        async () => {
          throw ambiguous();
        },
        {
          mutating: true,
          policy,
          sleep: async () => undefined,
          verify: async () => {
            throw new AmbiguousIdentityError("PublicIpAddress web", ["a", "b"]);
          },
        },
      ),
    ).rejects.toThrow(AmbiguousIdentityError);
  });
});

describe("gone is gone", () => {
  const records = new Map<string, { uuid: string; name: string }>();
  const notFound = () => apiError({ status: 404, errorCode: "NOT_FOUND", retryable: false, message: "no such" });
  const thing = defineResource({
    type: "Thing",
    description: "A test resource.",
    inputs: z.object({ name: z.string(), description: z.string().optional() }),
    outputs: z.object({ uuid: z.string() }),
    replaceOn: ["name"],
    updates: [{ fields: ["description"], via: "updateThing", apply: async () => undefined }],
    defaultTimeouts: { create: 1000, update: 1000, delete: 1000 },
    identity: { scope: (inputs) => inputs.name },
    create: async () => ({ id: "t-1" }),
    read: async (_ctx, id) => {
      const record = records.get(id);
      return record && { inputs: { name: record.name }, outputs: { uuid: record.uuid } };
    },
    delete: async (_ctx, id) => {
      if (!records.delete(id)) throw notFound();
    },
  });
  const engine = new Engine(thing, {
    client: () => ({}) as never,
    settings: () => ({}),
  });

  beforeEach(() => records.clear());

  test("a delete whose record is already gone succeeds", async () => {
    await expect(engine.delete("t-1", { name: "a" })).resolves.toBeUndefined();
  });

  test("a delete refused while the record is still there keeps its error", async () => {
    const refusing = new Engine(
      defineResource({
        ...thing,
        delete: async () => Promise.reject(apiError({ status: 409, errorCode: "CONFLICT", retryable: false })),
      }),
      { client: () => ({}) as never, settings: () => ({}) },
    );
    records.set("t-1", { uuid: "t-1", name: "a" });
    await expect(refusing.delete("t-1", { name: "a" })).rejects.toMatchObject({ status: 409 });
  });

  test("an update of a record that is gone says so and suggests pulumi refresh", async () => {
    const update = engine.update("t-1", { name: "a" }, { name: "a", description: "new" });
    await expect(update).rejects.toThrow(RecordGoneError);
    await expect(update).rejects.toThrow(/no longer exists.*pulumi refresh/);
  });
});

describe("every resource kind", () => {
  test.each(DECLARATIONS.map((d) => [d.type, d] as const))(
    "%s declares how its create is told apart",
    (_type, declaration) => {
      const { identity } = declaration;
      expect(typeof identity.scope).toBe("function");
      // Only kinds whose id is another record's (an address's) verify without candidates.
      if (identity.candidates === undefined) expect(["StaticNat", "RemoteAccessVpn"]).toContain(declaration.type);
    },
  );

  // A narrowing that dropped a record `matches` accepts would let a create miss its record and make a second one.
  test.each(DECLARATIONS.filter((d) => d.identity.where).map((d) => [d.type, d] as const))(
    "%s narrows its candidates' list to records it could match",
    (_type, declaration) => {
      const { identity } = declaration;
      const inputs = { name: "web-1", zoneUuid: "z", volumeUuid: "v" };
      const where = identity.where!(inputs)!;
      const matching = { uuid: "u", name: "web-1", zoneUuid: "z", volumeUuid: "v" };
      expect(identity.matches!(matching, inputs)).toBe(true);
      expect(kept([matching, { ...matching, name: "web-2" }], where)).toEqual([matching]);
      expect(identity.where!({ ...inputs, name: undefined })).toBeUndefined();
    },
  );
});
