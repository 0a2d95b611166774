/**
 * The native plugin's gRPC service (provider/native/server.ts), over real gRPC with the SDK's
 * protocol stubs, against the emulator: what the engine asks and what it is answered. The CLI's
 * side of it (the engine acting on these answers) is in tests/e2e/native.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's stubs, as the plugin loads them */
import { NativeProvider } from "../../../provider/native/server";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { FUNCTIONS } from "../../../provider/functions/registry";
import { asReceived, propsOf, serveProvider, struct, type ServedProvider } from "./served-provider";
import type * as ProviderMessages from "@pulumi/pulumi/proto/provider_pb";
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { fromStruct, SIG_KEY, SECRET_SIG } from "../../../provider/native/marshal";
import { NOT_READ_ON_IMPORT } from "../../../provider/engine/engine";
import { UNKNOWN } from "../../../provider/wire";

const pb = require("@pulumi/pulumi/proto/provider_pb") as typeof ProviderMessages;
const { Empty } = require("google-protobuf/google/protobuf/empty_pb");

let emulator: RunningEmulator;
let served: ServedProvider;
let zoneUuid: string;
let vpcOfferingUuid: string;
let configured: ProviderMessages.ConfigureResponse;

const VPC_URN = "urn:pulumi:dev::proj::restcloud:index:Vpc::web";

const rpc = <T>(method: string, request: unknown): Promise<T> => served.rpc<T>(method, request);

/** A request about the VPC `web`: its URN and type token set. */
function vpc<R extends { setUrn(urn: string): R; setType(type: string): R }>(request: R): R {
  return request.setUrn(VPC_URN).setType("restcloud:index:Vpc");
}

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

function checkRequest(news: Record<string, unknown>, seed: number, olds: Record<string, unknown> = {}) {
  return vpc(new pb.CheckRequest())
    .setName("web")
    .setOlds(struct(olds))
    .setNews(struct(news))
    .setRandomseed(Uint8Array.from({ length: 32 }, (_, i) => (i * seed) % 256));
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 50 });
  const catalog = emulator.context.catalog;
  zoneUuid = catalog.zones[0]!.uuid;
  vpcOfferingUuid = catalog.zoneCatalog(zoneUuid)!.vpcOfferings[0]!.uuid;
  served = await serveProvider();
  // The settings as an explicit provider sends them: typed values, the keys secret.
  configured = await rpc<ProviderMessages.ConfigureResponse>(
    "configure",
    new pb.ConfigureRequest().setAcceptsecrets(true).setArgs(
      struct({
        apiUrl: emulator.url,
        apiKey: secret(DEMO_CREDENTIALS.apiKey),
        secretKey: secret(DEMO_CREDENTIALS.secretKey),
        zoneUuid,
        maxConcurrentRequests: 4,
        // Not a setting: ignored (the dynamic mode's default provider stores every config key).
        "other:key": "x",
      }),
    ),
  );
});

afterAll(async () => {
  served?.stop();
  await emulator.stop();
});

test("plugin info and schema", async () => {
  const info = await rpc<{ getVersion(): string }>("getPluginInfo", new Empty());
  expect(info.getVersion()).toBe("9.9.9");
  const schema = await rpc<ProviderMessages.GetSchemaResponse>("getSchema", new pb.GetSchemaRequest());
  expect(JSON.parse(schema.getSchema())).toMatchObject({ name: "restcloud" });
});

test("CheckConfig names each bad setting; a value unknown at preview passes", async () => {
  const response = await rpc<ProviderMessages.CheckResponse>(
    "checkConfig",
    new pb.CheckRequest().setNews(
      struct({
        apiUrl: UNKNOWN,
        apiKey: secret("k"),
        secretKey: secret("s"),
        maxConcurrentRequests: "many",
        shareReads: "perhaps",
        requestTimeout: "soon",
      }),
    ),
  );
  const failures = Object.fromEntries(response.getFailuresList().map((f) => [f.getProperty(), f.getReason()]));
  expect(Object.keys(failures).sort()).toEqual(["maxConcurrentRequests", "requestTimeout", "shareReads"]);
});

test("DiffConfig: settings that are not restcloud's are no change; a new endpoint is an update, never a replace", async () => {
  const same = await rpc<ProviderMessages.DiffResponse>(
    "diffConfig",
    new pb.DiffRequest()
      .setOldInputs(struct({ "restcloud:apiUrl": "http://a", "aws:region": "x", "proj:size": "1" }))
      .setNews(struct({ apiUrl: "http://a" })),
  );
  expect(same.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
  const moved = await rpc<ProviderMessages.DiffResponse>(
    "diffConfig",
    new pb.DiffRequest().setOldInputs(struct({ apiUrl: "http://a" })).setNews(struct({ apiUrl: "http://b" })),
  );
  expect(moved.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
  expect(moved.getDiffsList()).toEqual(["apiUrl"]);
  expect(moved.getReplacesList()).toEqual([]);
});

test("defaultTags: a map in an explicit provider's args reaches Check; its change is an update of the provider, never a replace", async () => {
  const other = new NativeProvider({
    version: "0",
    schema: () => "{}",
    declarations: DECLARATIONS,
    functions: () => FUNCTIONS,
  });
  const settings = { apiUrl: emulator.url, apiKey: "k", secretKey: "s", zoneUuid, defaultTags: { team: "payments" } };
  await other.configure(asReceived("configure", new pb.ConfigureRequest().setArgs(struct(settings))));
  const checked = await other.check(
    asReceived("check", checkRequest({ cidr: "10.1.0.0/16", vpcOfferingUuid, tags: { app: "web" } }, 1)),
  );
  expect(fromStruct(checked.inputs).props.tags).toEqual({ team: "payments", app: "web" });
  // The stack config's form (a default provider): the map as JSON text.
  const bad = await other.checkConfig(
    asReceived(
      "checkConfig",
      new pb.CheckRequest().setNews(struct({ "restcloud:defaultTags": '{"pulumi-owner":"me"}' })),
    ),
  );
  expect(bad.failures?.map((f) => f.property)).toContain("defaultTags");
  const changed = await other.diffConfig(
    asReceived(
      "diffConfig",
      new pb.DiffRequest()
        .setOldInputs(struct({ "restcloud:defaultTags": '{"team":"payments"}' }))
        .setNews(struct({ "restcloud:defaultTags": '{"team":"checkout"}' })),
    ),
  );
  expect(changed.changes).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
  expect(changed.diffs).toEqual(["defaultTags"]);
  expect(changed.replaces ?? []).toEqual([]);
});

test("Check: the auto-name comes from the engine's random seed (the same seed, the same name), kept once given", async () => {
  const news = { cidr: "10.1.0.0/16", vpcOfferingUuid };
  const names = await Promise.all(
    [1, 1, 3].map(async (seed) => {
      const response = await rpc<ProviderMessages.CheckResponse>("check", checkRequest(news, seed));
      expect(response.getFailuresList()).toEqual([]);
      return propsOf(response.getInputs()).props;
    }),
  );
  expect(names[0]!.name).toMatch(/^web-[0-9a-f]{7}$/);
  expect(names[1]!.name).toBe(names[0]!.name);
  expect(names[2]!.name).not.toBe(names[0]!.name);
  expect(names[0]!.zoneUuid).toBe(zoneUuid); // the provider's default zone
  const kept = await rpc<ProviderMessages.CheckResponse>("check", checkRequest(news, 5, names[0]!));
  expect(propsOf(kept.getInputs()).props.name).toBe(names[0]!.name);
});

test("Configure takes the stack's autonaming; Check follows each mode the engine sends", async () => {
  expect(configured.getSupportsAutonamingConfiguration()).toBe(true);
  const { Mode } = pb.CheckRequest.AutonamingOptions;
  const check = async (news: Record<string, unknown>, mode: number, proposedName = "") => {
    const options = new pb.CheckRequest.AutonamingOptions().setMode(mode).setProposedName(proposedName);
    const response = await rpc<ProviderMessages.CheckResponse>("check", checkRequest(news, 1).setAutonaming(options));
    const failures = response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    return { name: propsOf(response.getInputs()).props.name, failures };
  };
  const news = { cidr: "10.1.0.0/16", vpcOfferingUuid };
  expect(await check(news, Mode.PROPOSE, "dev-web-1a2b")).toEqual({ name: "dev-web-1a2b", failures: [] });
  expect(await check({ ...news, name: "mine" }, Mode.ENFORCE, "web")).toEqual({ name: "mine", failures: [] });
  expect(await check(news, Mode.DISABLE)).toEqual({
    name: undefined,
    failures: [
      "name: is required: the stack's autonaming is disabled (pulumi:autonaming), so the program must give it",
    ],
  });
  expect((await check(news, Mode.ENFORCE, "dev/web")).failures).toEqual([
    "name: must start with a letter or digit and hold only letters, digits, '.', '_', '-'; " +
      '"dev/web" is the name the stack\'s autonaming pattern gave (pulumi:autonaming)',
  ]);
});

test("Check: a failure per bad argument, named", async () => {
  const response = await rpc<ProviderMessages.CheckResponse>(
    "check",
    checkRequest({ cidr: "10.1.0.0/33", vpcOfferingUuid, colour: "red" }, 1),
  );
  expect(response.getFailuresList().map((f) => f.getProperty())).toEqual(["cidr", "colour"]);
});

test("Check: a secret argument stays secret", async () => {
  const response = await rpc<ProviderMessages.CheckResponse>(
    "check",
    new pb.CheckRequest()
      .setUrn("urn:pulumi:dev::proj::restcloud:index:VpnCustomerGateway::office")
      .setType("restcloud:index:VpnCustomerGateway")
      .setName("office")
      .setNews(
        struct({
          gateway: "198.51.100.7",
          cidrList: "192.168.0.0/24",
          ipsecPresharedKey: secret("correct horse battery"),
          ikeEncryption: "aes256",
          ikeHash: "sha256",
          espEncryption: "aes256",
          espHash: "sha256",
        }),
      ),
  );
  const inputs = response.getInputs()!.toJavaScript();
  expect(inputs.ipsecPresharedKey).toEqual(secret("correct horse battery"));
});

test("Diff: per property, update or replace, with the kind of change", async () => {
  const olds = { name: "web-1", zoneUuid, cidr: "10.1.0.0/16", vpcOfferingUuid, description: "a" };
  const response = await rpc<ProviderMessages.DiffResponse>(
    "diff",
    vpc(new pb.DiffRequest())
      .setOldInputs(struct(olds))
      .setOlds(struct({ ...olds, uuid: "x", status: "Active" }))
      .setNews(struct({ ...olds, description: "b", cidr: "10.2.0.0/16", networkDomain: "corp" })),
  );
  const { Kind } = pb.PropertyDiff;
  const detailed: Record<string, number> = {};
  response.getDetaileddiffMap().forEach((diff, key) => (detailed[key] = diff.getKind()));
  expect(response.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
  expect(response.getHasdetaileddiff()).toBe(true);
  expect(detailed).toEqual({ cidr: Kind.UPDATE_REPLACE, networkDomain: Kind.ADD_REPLACE, description: Kind.UPDATE });
  expect(response.getReplacesList().sort()).toEqual(["cidr", "networkDomain"]);
  // The dynamic adapter's leftovers in a migrated stack's state are no change.
  const migrated = await rpc<ProviderMessages.DiffResponse>(
    "diff",
    vpc(new pb.DiffRequest())
      .setOldInputs(struct({ ...olds, __provider: "exports.handler = ...", __restcloud: { autoName: "web" } }))
      .setNews(struct(olds)),
  );
  expect(migrated.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
});

test("Create, Read (refresh and import by id alone), Update, Delete against the emulator", async () => {
  const inputs = { name: "native-vpc", zoneUuid, cidr: "10.9.0.0/16", vpcOfferingUuid, description: "first" };
  const preview = await rpc<ProviderMessages.CreateResponse>(
    "create",
    vpc(new pb.CreateRequest()).setProperties(struct(inputs)).setPreview(true),
  );
  expect(preview.getId()).toBe("");
  expect(propsOf(preview.getProperties()).props.uuid).toBe(UNKNOWN);

  const created = await rpc<ProviderMessages.CreateResponse>(
    "create",
    vpc(new pb.CreateRequest()).setProperties(struct(inputs)).setTimeout(60),
  );
  const id = created.getId();
  expect(propsOf(created.getProperties()).props).toMatchObject({ ...inputs, uuid: id, status: "Active" });

  const imported = await rpc<ProviderMessages.ReadResponse>("read", vpc(new pb.ReadRequest()).setId(id));
  expect(imported.getId()).toBe(id);
  // The spec's VPC record does not show its offering: the import names it as not read (in the inputs,
  // which Pulumi hands back to Check and Diff, and in the state), and the program's value for it is
  // then no change.
  const { vpcOfferingUuid: _offering, ...shown } = inputs;
  const { [NOT_READ_ON_IMPORT]: notRead, ...importedInputs } = propsOf(imported.getInputs()).props;
  expect(importedInputs).toEqual(shown);
  const importedState = propsOf(imported.getProperties()).props;
  expect(importedState[NOT_READ_ON_IMPORT]).toEqual(notRead);
  // restartTriggers too: an imported VPC's trigger list is the program's, and adopting it restarts nothing.
  expect(notRead).toEqual(["vpcOfferingUuid", "networkDomain", "publicLoadBalancerProvider", "restartTriggers"]);
  const adopt = await rpc<ProviderMessages.DiffResponse>(
    "diff",
    vpc(new pb.DiffRequest())
      .setOldInputs(imported.getInputs())
      .setOlds(imported.getProperties())
      .setNews(struct(inputs)),
  );
  expect(adopt.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);

  const updated = await rpc<ProviderMessages.UpdateResponse>(
    "update",
    vpc(new pb.UpdateRequest())
      .setId(id)
      .setOlds(created.getProperties())
      .setOldInputs(struct(inputs))
      .setNews(struct({ ...inputs, description: "second" })),
  );
  expect(propsOf(updated.getProperties()).props.description).toBe("second");

  await rpc("delete", vpc(new pb.DeleteRequest()).setId(id).setProperties(updated.getProperties()));
  // Gone is gone: a refresh drops it (no id), a second delete succeeds.
  const gone = await rpc<ProviderMessages.ReadResponse>(
    "read",
    vpc(new pb.ReadRequest()).setId(id).setProperties(updated.getProperties()),
  );
  expect(gone.getId()).toBe("");
  await rpc("delete", vpc(new pb.DeleteRequest()).setId(id).setProperties(updated.getProperties()));
});

test("Cancel during an update's wait: the wait ends at once, saying so", async () => {
  const slow = await startEmulator({ port: 0, asyncDelayMs: 60_000 });
  const other = new NativeProvider({
    version: "0",
    schema: () => "{}",
    declarations: DECLARATIONS,
    functions: () => FUNCTIONS,
  });
  const settings: Record<string, string> = {
    "restcloud:apiUrl": slow.url,
    "restcloud:apiKey": DEMO_CREDENTIALS.apiKey,
    "restcloud:secretKey": DEMO_CREDENTIALS.secretKey,
  };
  other.session.configure({ get: (key) => settings[key] });
  const inputs = { name: "slow-vpc", zoneUuid, cidr: "10.8.0.0/16", vpcOfferingUuid, description: "a" };
  try {
    const created = await other.create(asReceived("create", vpc(new pb.CreateRequest()).setProperties(struct(inputs))));
    // The emulator applies the update after a minute: the update waits until it is visible.
    const pending = other.update(
      asReceived(
        "update",
        vpc(new pb.UpdateRequest())
          .setId(created.id!)
          .setOlds(struct(fromStruct(created.properties).props))
          .setOldInputs(struct(inputs))
          .setNews(struct({ ...inputs, description: "b" })),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = Date.now();
    other.service().cancel!({ request: new Empty() } as never, () => undefined);
    const error = (await pending.then(
      () => new Error("the update was not cancelled"),
      (e: unknown) => e,
    )) as Error;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.message).toMatch(/^restcloud:Vpc web: cancelled while waiting for VPC .* to show the update/);
  } finally {
    await slow.stop();
  }
});

test("Invoke: a function answers; a bad argument comes back as a failure naming it", async () => {
  const zones = await rpc<ProviderMessages.InvokeResponse>(
    "invoke",
    new pb.InvokeRequest().setTok("restcloud:index:getZones").setArgs(struct({})),
  );
  expect((zones.getReturn()!.toJavaScript().zones as unknown[]).length).toBeGreaterThan(0);
  const bad = await rpc<ProviderMessages.InvokeResponse>(
    "invoke",
    new pb.InvokeRequest().setTok("restcloud:index:getComputePlans").setArgs(struct({ minCores: "two" })),
  );
  expect(bad.getFailuresList().map((f) => f.getProperty())).toEqual(["minCores"]);
});

test("Invoke: a function's secret outputs come back wrapped as secrets, its other outputs plain", async () => {
  const answer = await rpc<ProviderMessages.InvokeResponse>(
    "invoke",
    new pb.InvokeRequest().setTok("restcloud:index:getPublicKey").setArgs(struct({})),
  );
  const returned = answer.getReturn()!.toJavaScript() as Record<string, Record<string, unknown>>;
  for (const key of ["apiKey", "secretKey"]) {
    expect(returned[key]).toEqual({ [SIG_KEY]: SECRET_SIG, value: expect.any(String) });
  }
  const { props, secrets } = propsOf(answer.getReturn());
  expect([...secrets].sort()).toEqual(["apiKey", "secretKey"]);
  expect(props.secretKey).toBe("restcloud-costestimate-public-secret-key");
  const tax = await rpc<ProviderMessages.InvokeResponse>(
    "invoke",
    new pb.InvokeRequest().setTok("restcloud:index:getTax").setArgs(struct({})),
  );
  expect(propsOf(tax.getReturn()).secrets.size).toBe(0);
  expect(propsOf(tax.getReturn()).props.taxName).toEqual(expect.any(String));
});
