/**
 * `restcloud recover`'s matching (provider/recover/match.ts) against the emulator over HTTP, without
 * the Pulumi CLI: records are made as a killed `pulumi up` leaves them, through the engine with a
 * URN (tagged at create, as the provider does) or with owner tags off (a create killed before its
 * tag: nothing but its name or arguments tells it apart), and the pending creates are what the state
 * would hold: the URN and the checked inputs. Each rule of the search, and what it never takes.
 */
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import type { OperationContext } from "../../../provider/engine/declaration";
import { Engine, type PropertyMap } from "../../../provider/engine/engine";
import { IdentityRegistry } from "../../../provider/engine/identity";
import { claimRecord, ownersOf } from "../../../provider/engine/ownership";
import { BY_TYPE } from "../../../provider/resources/registry";
import type { HeldRecord, PendingCreate } from "../../../provider/recover/deployment";
import { claimFound, findRecords, type Finding } from "../../../provider/recover/match";
import { discoverCatalog, type CatalogIds } from "../../e2e/catalog-ids";

jest.setTimeout(120_000);

let emulator: RunningEmulator;
let catalog: CatalogIds;
let client: RestCloudClient;
const declarations = BY_TYPE;

const newClient = (apiUrl = emulator.url) =>
  new RestCloudClient({
    apiUrl,
    apiKey: DEMO_CREDENTIALS.apiKey,
    secretKey: DEMO_CREDENTIALS.secretKey,
    retry: { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 100 },
  } as ConstructorParameters<typeof RestCloudClient>[0]);

const context = (c = client): OperationContext => ({
  client: c,
  settings: { zoneUuid: catalog.zoneUuid },
  timeoutMs: 30_000,
  progress: () => undefined,
});

/** A stack's URN of a resource (the native token; recover reads either mode's). */
const urn = (stack: string, kind: string, name: string) =>
  `urn:pulumi:${stack}::shop::restcloud:index:${kind}::${name}`;

/** One provider process: creates with owner tags (as the provider does), or without (a create killed before its tag). */
function provider(ownerTags: boolean) {
  const settings = { zoneUuid: catalog.zoneUuid, ownerTags };
  const identities = new IdentityRegistry(50);
  const engine = (kind: string) =>
    new Engine(declarations.get(kind)!, { client: () => client, settings: () => settings, identities });
  return {
    /** The checked inputs: what a pending create holds. */
    check: (kind: string, name: string, args: PropertyMap) =>
      engine(kind).check({}, args, { logicalName: name }).inputs,
    create: async (kind: string, inputs: PropertyMap, resourceUrn: string) =>
      (await engine(kind).create(inputs, { urn: resourceUrn })).id,
  };
}

const pending = (stack: string, kind: string, name: string, inputs: PropertyMap): PendingCreate => ({
  urn: urn(stack, kind, name),
  type: `restcloud:index:${kind}`,
  kind,
  name,
  inputs,
});

const outcomes = (findings: Finding[]) =>
  Object.fromEntries(
    findings.map(({ pending: p, outcome }) => [
      p.name,
      outcome.status === "adopted"
        ? { status: outcome.status, id: outcome.id, by: outcome.by }
        : { status: outcome.status },
    ]),
  );

/** A VPC and a tier of a stack of their own, created as the provider does. */
async function network(stack: string): Promise<{ vpcUuid: string; tierUuid: string }> {
  const p = provider(true);
  const vpc = p.check("Vpc", "vpc", { cidr: "10.70.0.0/16", vpcOfferingUuid: catalog.vpcOfferingUuid });
  const vpcUuid = await p.create("Vpc", vpc, urn(stack, "Vpc", "vpc"));
  const tier = p.check("VpcTier", "tier", {
    vpcUuid,
    cidr: "10.70.1.0/24",
    networkOfferingUuid: catalog.tierOfferingUuid,
  });
  return { vpcUuid, tierUuid: await p.create("VpcTier", tier, urn(stack, "VpcTier", "tier")) };
}

const instanceArgs = (networkUuid: string) => ({
  templateUuid: catalog.ubuntuTemplateUuid,
  computeOfferingUuid: catalog.smallPlanUuid,
  networkUuid,
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 0, seed: 11 });
  catalog = await discoverCatalog(emulator.url);
  client = newClient();
});
afterAll(async () => emulator?.stop());

describe("named records", () => {
  test("by owner tag, else by name; a create that never reached the service is cleared", async () => {
    const { tierUuid } = await network("named");
    const tagged = provider(true);
    const untagged = provider(false);
    const web = tagged.check("Instance", "web", instanceArgs(tierUuid));
    const app = untagged.check("Instance", "app", instanceArgs(tierUuid));
    const db = tagged.check("Instance", "db", instanceArgs(tierUuid));
    const webId = await tagged.create("Instance", web, urn("named", "Instance", "web"));
    const appId = await untagged.create("Instance", app, urn("named", "Instance", "app"));
    const findings = await findRecords(
      context(),
      [
        pending("named", "Instance", "web", web),
        pending("named", "Instance", "app", app),
        pending("named", "Instance", "db", db),
      ],
      [],
      declarations,
    );
    expect(outcomes(findings)).toEqual({
      web: { status: "adopted", id: webId, by: "owner tag" },
      app: { status: "adopted", id: appId, by: "name" },
      db: { status: "cleared" },
    });
    // Found by name, claimed before it goes to state: the tag says whose it is from now on.
    await claimFound(context(), findings, declarations);
    expect((await ownersOf(client, "UserVm")).get(appId)).toBe(urn("named", "Instance", "app"));
  });

  test("never a record the state holds, nor one another URN's tag claims", async () => {
    const { tierUuid } = await network("taken");
    const untagged = provider(false);
    const web = untagged.check("Instance", "web", instanceArgs(tierUuid));
    const app = untagged.check("Instance", "app", instanceArgs(tierUuid));
    const webId = await untagged.create("Instance", web, urn("taken", "Instance", "web"));
    const appId = await untagged.create("Instance", app, urn("taken", "Instance", "app"));
    // Another stack's create took the record with that name first (its claim stands).
    await claimRecord(client, {
      resourceType: "UserVm",
      zoneUuid: catalog.zoneUuid,
      resourceUuid: appId,
      urn: urn("other", "Instance", "app"),
    });
    const held: HeldRecord[] = [{ urn: urn("taken", "Instance", "old"), kind: "Instance", id: webId }];
    const findings = await findRecords(
      context(),
      [pending("taken", "Instance", "web", web), pending("taken", "Instance", "app", app)],
      held,
      declarations,
    );
    expect(outcomes(findings)).toEqual({ web: { status: "cleared" }, app: { status: "cleared" } });
  });
});

describe("nameless records", () => {
  test("an egress rule (no tag, no name) by its arguments, and never another rule of its network", async () => {
    const { tierUuid } = await network("egress");
    const untagged = provider(false);
    const https = untagged.check("EgressRule", "https", { networkUuid: tierUuid, protocol: "TCP", startPort: 443 });
    const dns = untagged.check("EgressRule", "dns", { networkUuid: tierUuid, protocol: "UDP", startPort: 53 });
    const httpsId = await untagged.create("EgressRule", https, urn("egress", "EgressRule", "https"));
    // Held by the state: the DNS rule's record is its resource's, not the pending create's.
    const dnsId = await untagged.create("EgressRule", dns, urn("egress", "EgressRule", "dns"));
    const ssh = untagged.check("EgressRule", "ssh", { networkUuid: tierUuid, protocol: "TCP", startPort: 22 });
    const findings = await findRecords(
      context(),
      [pending("egress", "EgressRule", "https", https), pending("egress", "EgressRule", "ssh", ssh)],
      [{ urn: urn("egress", "EgressRule", "dns"), kind: "EgressRule", id: dnsId }],
      declarations,
    );
    expect(outcomes(findings)).toEqual({
      https: { status: "adopted", id: httpsId, by: "arguments" },
      ssh: { status: "cleared" },
    });
    // The adopted rule's read needs its zone: what the state gets beside the inputs.
    const adopted = findings[0].outcome;
    expect(adopted.status === "adopted" && adopted.outputs.ruleZoneUuid).toBe(catalog.zoneUuid);
  });

  test("equivalent addresses whose tags never came are handed out one each; more than the creates is ambiguous", async () => {
    const { vpcUuid } = await network("ips");
    const tagged = provider(true);
    const untagged = provider(false);
    const args = () => untagged.check("PublicIpAddress", "ip", { vpcUuid });
    const [a, b, c] = [args(), args(), args()];
    // One address claimed by its create; two whose creates were killed before their tags.
    const taggedId = await tagged.create("PublicIpAddress", a, urn("ips", "PublicIpAddress", "a"));
    const first = await untagged.create("PublicIpAddress", b, urn("ips", "PublicIpAddress", "b"));
    const second = await untagged.create("PublicIpAddress", c, urn("ips", "PublicIpAddress", "c"));
    const three = [
      pending("ips", "PublicIpAddress", "a", a),
      pending("ips", "PublicIpAddress", "b", b),
      pending("ips", "PublicIpAddress", "c", c),
    ];
    const findings = outcomes(await findRecords(context(), three, [], declarations));
    expect(findings.a).toEqual({ status: "adopted", id: taggedId, by: "owner tag" });
    expect([findings.b, findings.c].map((o) => o.status)).toEqual(["adopted", "adopted"]);
    expect(new Set([findings.b, findings.c].map((o) => (o as { id: string }).id))).toEqual(new Set([first, second]));

    // A third unclaimed address on the VPC (a hand-made one, or another stack's untagged): which two
    // of the three are b's and c's, nothing says.
    await untagged.create("PublicIpAddress", args(), urn("elsewhere", "PublicIpAddress", "x"));
    const again = outcomes(await findRecords(context(), three, [], declarations));
    expect(again.a).toEqual({ status: "adopted", id: taggedId, by: "owner tag" });
    expect([again.b.status, again.c.status]).toEqual(["ambiguous", "ambiguous"]);
  });

  test("a firewall rule found by arguments but claimed meanwhile by another stack is given up", async () => {
    const { vpcUuid } = await network("race");
    const untagged = provider(false);
    const ip = await provider(true).create(
      "PublicIpAddress",
      untagged.check("PublicIpAddress", "ip", { vpcUuid }),
      urn("race", "PublicIpAddress", "ip"),
    );
    const rule = untagged.check("FirewallRule", "https", { ipAddressUuid: ip, protocol: "TCP", startPort: 443 });
    const ruleId = await untagged.create("FirewallRule", rule, urn("race", "FirewallRule", "https"));
    const findings = await findRecords(context(), [pending("race", "FirewallRule", "https", rule)], [], declarations);
    expect(outcomes(findings)).toEqual({ https: { status: "adopted", id: ruleId, by: "arguments" } });
    await claimRecord(client, {
      resourceType: "FirewallRule",
      zoneUuid: catalog.zoneUuid,
      resourceUuid: ruleId,
      urn: urn("other", "FirewallRule", "https"),
    });
    expect(outcomes(await claimFound(context(), findings, declarations))).toEqual({
      https: { status: "ambiguous" },
    });
  });
});

describe("records that are their address's", () => {
  test("a static NAT by its address; an address without one is cleared", async () => {
    const { vpcUuid, tierUuid } = await network("nat");
    const p = provider(true);
    const vm = await p.create(
      "Instance",
      p.check("Instance", "vm", instanceArgs(tierUuid)),
      urn("nat", "Instance", "vm"),
    );
    const [natIp, bareIp] = await Promise.all(
      ["natIp", "bareIp"].map((name) =>
        p.create("PublicIpAddress", p.check("PublicIpAddress", name, { vpcUuid }), urn("nat", "PublicIpAddress", name)),
      ),
    );
    const nat = p.check("StaticNat", "nat", { ipAddressUuid: natIp, instanceUuid: vm, networkUuid: tierUuid });
    await p.create("StaticNat", nat, urn("nat", "StaticNat", "nat"));
    const never = p.check("StaticNat", "never", { ipAddressUuid: bareIp, instanceUuid: vm, networkUuid: tierUuid });
    const findings = await findRecords(
      context(),
      [pending("nat", "StaticNat", "nat", nat), pending("nat", "StaticNat", "never", never)],
      // The addresses are held by their resources: a static NAT's id is its address's, by design.
      [
        { urn: urn("nat", "PublicIpAddress", "natIp"), kind: "PublicIpAddress", id: natIp },
        { urn: urn("nat", "PublicIpAddress", "bareIp"), kind: "PublicIpAddress", id: bareIp },
      ],
      declarations,
    );
    expect(outcomes(findings)).toEqual({
      nat: { status: "adopted", id: natIp, by: "address" },
      never: { status: "cleared" },
    });
  });
});

describe("a service that does not answer", () => {
  test("nothing is decided", async () => {
    const down = newClient("http://127.0.0.1:9");
    const findings = await findRecords(
      context(down),
      [pending("down", "Vpc", "vpc", { name: "vpc-1234567", zoneUuid: catalog.zoneUuid, cidr: "10.1.0.0/16" })],
      [],
      declarations,
    );
    expect(outcomes(findings)).toEqual({ vpc: { status: "failed" } });
  });
});
