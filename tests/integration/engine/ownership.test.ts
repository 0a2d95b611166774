/**
 * Ownership across processes (engine/ownership.ts, identity.ts): several "stacks", each an engine
 * with its own identity registry and client (as separate provider processes have), create nameless
 * records under one shared parent at once while the service loses answers (503 after processing).
 * Every create ends with a record of its own, tagged with its URN; no record is held twice; none is
 * left that no one holds. And the claim itself: one tag key per record, so the second claimant is
 * told who won.
 */
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import { Engine } from "../../../provider/engine/engine";
import { IdentityRegistry } from "../../../provider/engine/identity";
import { OWNER_TAG_KEY, claimRecord, ownerTagValue, ownersOf, parseOwner } from "../../../provider/engine/ownership";
import type { ResourceDeclaration } from "../../../provider/engine/declaration";
import { publicIpAddressDeclaration } from "../../../provider/resources/public-ip-address";
import { firewallRuleDeclaration } from "../../../provider/resources/rules";
import { vpcDeclaration } from "../../../provider/resources/vpc";
import { vpcTierDeclaration } from "../../../provider/resources/vpc-tier";
import { DECLARATIONS } from "../../../provider/resources/registry";
import { discoverCatalog, type CatalogIds } from "../../e2e/catalog-ids";
import { setFaultRules } from "../client/helpers";

jest.setTimeout(180_000);

const STACKS = 5;
const PER_STACK = 3;

let emulator: RunningEmulator;
let catalog: CatalogIds;

const newClient = () =>
  new RestCloudClient({
    apiUrl: emulator.url,
    apiKey: DEMO_CREDENTIALS.apiKey,
    secretKey: DEMO_CREDENTIALS.secretKey,
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
  } as ConstructorParameters<typeof RestCloudClient>[0]);

/** One provider process of one stack: its own client and registry, as a separate `pulumi up` has. */
function stackProcess(ownerTags = true) {
  const client = newClient();
  const identities = new IdentityRegistry(100);
  const settings = { zoneUuid: catalog.zoneUuid, ownerTags };
  return (declaration: ResourceDeclaration) =>
    new Engine(declaration, { client: () => client, settings: () => settings, identities, declarations: DECLARATIONS });
}

const urn = (stack: string, type: string, name: string) =>
  `urn:pulumi:${stack}::shop::restcloud:index:${type}::${name}`;

const setFaults = (rules: object[]) => setFaultRules(emulator, rules);

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 0, seed: 7 });
  catalog = await discoverCatalog(emulator.url);
});
afterAll(async () => emulator?.stop());
afterEach(async () => setFaults([]));

async function sharedVpc(): Promise<string> {
  const engine = stackProcess()(vpcDeclaration as unknown as ResourceDeclaration);
  const { inputs } = engine.check(
    {},
    { cidr: "10.8.0.0/16", vpcOfferingUuid: catalog.vpcOfferingUuid },
    { logicalName: "net" },
  );
  return (await engine.create(inputs, { urn: urn("network", "Vpc", "net") })).id;
}

describe("the claim", () => {
  test("one owner per record: a second URN is told who holds it, the same URN is told it does", async () => {
    const client = newClient();
    const vpcUuid = await sharedVpc();
    const ip = await client.ipAddress.acquire({ networkUuid: vpcUuid, networkType: "VPC" });
    const request = { resourceType: "PublicIpAddress" as const, zoneUuid: catalog.zoneUuid, resourceUuid: ip.uuid };
    const first = urn("a", "PublicIpAddress", "web");
    expect(await claimRecord(client, { ...request, urn: first })).toEqual({ claimed: true });
    expect(await claimRecord(client, { ...request, urn: first })).toEqual({ claimed: true });
    expect(await claimRecord(client, { ...request, urn: urn("b", "PublicIpAddress", "web") })).toEqual({
      claimed: false,
      owner: first,
    });
    expect((await ownersOf(client, "PublicIpAddress")).get(ip.uuid)).toBe(first);
  });

  test("a URN too long for a tag keeps its stack and project and a digest of the whole", () => {
    const long = urn("prod", "PublicIpAddress", "x".repeat(400));
    const value = ownerTagValue(long);
    expect(value).toHaveLength(255);
    expect(ownerTagValue(long)).toBe(value);
    expect(parseOwner(value)).toEqual({
      value,
      stack: "prod",
      project: "shop",
      type: "restcloud:index:PublicIpAddress",
    });
    expect(parseOwner(urn("dev", "Vpc", "net"))).toMatchObject({ stack: "dev", project: "shop", name: "net" });
  });
});

describe(`${STACKS} stacks acquiring ${PER_STACK} public IPs each on one VPC, answers lost at 0.4`, () => {
  test.each([1, 2, 3])("run %i: every create holds one address of its own, tagged with its URN", async (seed) => {
    const vpcUuid = await sharedVpc();
    await setFaults([{ operation: "acquireIpAddress", effect: "status", when: "after", probability: 0.4 }]);
    const results = await Promise.all(
      Array.from({ length: STACKS }, (_, s) => {
        const engines = stackProcess();
        const ipEngine = engines(publicIpAddressDeclaration as unknown as ResourceDeclaration);
        const ruleEngine = engines(firewallRuleDeclaration as unknown as ResourceDeclaration);
        return Promise.all(
          Array.from({ length: PER_STACK }, async (_, i) => {
            const ipUrn = urn(`app-${seed}-${s}`, "PublicIpAddress", `ip-${i}`);
            const { inputs } = ipEngine.check({}, { vpcUuid }, { logicalName: `ip-${i}` });
            const ip = await ipEngine.create(inputs, { urn: ipUrn });
            const rule = ruleEngine.check({}, { ipAddressUuid: ip.id, protocol: "TCP", startPort: 443 }).inputs;
            const made = await ruleEngine.create(rule, { urn: urn(`app-${seed}-${s}`, "FirewallRule", `rule-${i}`) });
            return { urn: ipUrn, id: ip.id, ruleId: made.id };
          }),
        );
      }),
    );
    const log = (await (await fetch(`${emulator.url}/_emulator/faults/log`)).json()) as { entries: unknown[] };
    await setFaults([]);
    await fetch(`${emulator.url}/_emulator/faults/log`, { method: "DELETE" });
    // The answers lost: creates that had to find out whether they took effect, across stacks at once.
    expect(log.entries.length).toBeGreaterThan(0);
    const held = results.flat();
    const client = newClient();
    const owners = await ownersOf(client, "PublicIpAddress");
    const addresses = (await client.ipAddress.list({ zoneUuid: catalog.zoneUuid, networkUuid: vpcUuid })).filter(
      (ip) => ip.isSourcenat !== true,
    );
    // No id held twice, none left unheld, each tagged with its holder.
    expect(new Set(held.map((h) => h.id)).size).toBe(STACKS * PER_STACK);
    expect(addresses.map((ip) => ip.uuid).sort()).toEqual(held.map((h) => h.id).sort());
    for (const h of held) expect(owners.get(h.id)).toBe(h.urn);
    const ruleOwners = await ownersOf(client, "FirewallRule");
    for (const h of held) expect(parseOwner(ruleOwners.get(h.ruleId)!)?.stack).toBe(parseOwner(h.urn)?.stack);
    const tagKeys = new Set((await client.resourceTag.list({ resourceType: "PublicIpAddress" })).map((t) => t.key));
    expect([...tagKeys]).toEqual([OWNER_TAG_KEY]);
  });
});

describe("a delete refused because a record no resource of the stack holds still uses the parent", () => {
  test("names each such record, whose its owner tag says it is, and how to adopt or remove it", async () => {
    const client = newClient();
    const engines = stackProcess();
    const vpcEngine = engines(vpcDeclaration as unknown as ResourceDeclaration);
    const { inputs } = vpcEngine.check(
      {},
      { cidr: "10.9.0.0/16", vpcOfferingUuid: catalog.vpcOfferingUuid },
      { logicalName: "net" },
    );
    const vpc = await vpcEngine.create(inputs, { urn: urn("network", "Vpc", "net") });
    // One address a killed `pulumi up` of another stack tagged and never recorded; one made by hand.
    const tagged = await client.ipAddress.acquire({ networkUuid: vpc.id, networkType: "VPC" });
    const byHand = await client.ipAddress.acquire({ networkUuid: vpc.id, networkType: "VPC" });
    const owner = urn("app-7", "PublicIpAddress", "web-ip");
    await claimRecord(client, {
      resourceType: "PublicIpAddress",
      zoneUuid: catalog.zoneUuid,
      resourceUuid: tagged.uuid,
      urn: owner,
    });

    const refusal = vpcEngine.delete(vpc.id, vpc.state, { urn: urn("network", "Vpc", "net") });
    await expect(refusal).rejects.toThrow(/409/);
    const message = await refusal.catch((error: Error) => error.message);
    expect(message).toContain(
      `public IP address ${tagged.uuid}: created by resource web-ip of stack app-7 (project shop)`,
    );
    expect(message).toContain(`public IP address ${byHand.uuid}: no owner tag`);
    expect(message).toContain("`restcloud discover`");
    expect(message).toContain("`restcloud recover`");

    // Once they are gone, the delete goes through.
    for (const ip of [tagged, byHand]) await client.ipAddress.release({ uuid: ip.uuid });
    await vpcEngine.delete(vpc.id, vpc.state);
  });
});

describe("what the marking costs", () => {
  /** Creates a VPC, a tier, a public IP and a firewall rule through one process; the requests the service saw. */
  async function requestsOfCreates(ownerTags: boolean): Promise<{ total: number; createTags: number }> {
    await fetch(`${emulator.url}/_emulator/stats`, { method: "DELETE" });
    const engines = stackProcess(ownerTags);
    const stack = `cost-${ownerTags}`;
    const create = async (declaration: unknown, args: Record<string, unknown>, name: string) => {
      const engine = engines(declaration as ResourceDeclaration);
      const { inputs } = engine.check({}, args, { logicalName: name });
      return engine.create(inputs, { urn: urn(stack, engine.declaration.type, name) });
    };
    const vpc = await create(vpcDeclaration, { cidr: "10.10.0.0/16", vpcOfferingUuid: catalog.vpcOfferingUuid }, "vpc");
    await create(
      vpcTierDeclaration,
      { vpcUuid: vpc.id, cidr: "10.10.1.0/24", networkOfferingUuid: catalog.tierOfferingUuid },
      "tier",
    );
    const ip = await create(publicIpAddressDeclaration, { vpcUuid: vpc.id }, "ip");
    await create(firewallRuleDeclaration, { ipAddressUuid: ip.id, protocol: "TCP", startPort: 22 }, "ssh");
    const stats = (await (await fetch(`${emulator.url}/_emulator/stats`)).json()) as {
      total: number;
      byOperation: Record<string, number>;
    };
    return { total: stats.total, createTags: stats.byOperation.createTags ?? 0 };
  }

  test("one createTags per create of a taggable kind, and nothing else", async () => {
    const without = await requestsOfCreates(false);
    const withTags = await requestsOfCreates(true);
    console.log(
      `creates of a VPC, a tier, a public IP and a firewall rule: ${without.total} requests without owner tags, ` +
        `${withTags.total} with (${withTags.createTags} createTags)`,
    );
    expect(without.createTags).toBe(0);
    expect(withTags.createTags).toBe(4);
    expect(withTags.total - without.total).toBe(4);
  });
});
