/**
 * `tags` on the taggable kinds and the provider's `defaultTags` (engine/tags.ts), through the engine over
 * HTTP against the emulator: check merges the defaults in (the resource's own value wins), a create makes
 * the tags once the record is ready, an update adds, changes and removes keys in place, refresh reports
 * the live values of the declared keys only (drift, then the next update puts a removed key back), an
 * import carries every tag. The owner tag and the keys of a ResourceTag stay out of `tags` and are never
 * touched; a key both declare is refused naming it; a lost answer to a tag's create is found out; a
 * create whose tags failed keeps its id and finishes them at the next update.
 */
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import type { ProviderSettings, ResourceDeclaration } from "../../../provider/engine/declaration";
import { Engine, ResourceInitError, type PropertyMap } from "../../../provider/engine/engine";
import { IdentityRegistry } from "../../../provider/engine/identity";
import { OWNER_TAG_KEY, ownerTagValue } from "../../../provider/engine/ownership";
import { DECLARATIONS, RESOURCES } from "../../../provider/resources/registry";
import { discoverCatalog, type CatalogIds } from "../../e2e/catalog-ids";
import { setFaultRules } from "../client/helpers";

jest.setTimeout(120_000);

let emulator: RunningEmulator;
let catalog: CatalogIds;
let client: RestCloudClient;
let settings: ProviderSettings;

const engineOf = (declaration: unknown) =>
  new Engine(declaration as ResourceDeclaration, {
    client: () => client,
    settings: () => settings,
    identities: new IdentityRegistry(),
    declarations: DECLARATIONS,
  });
const vpcs = () => engineOf(RESOURCES.Vpc);
const urn = (type: string, name: string) => `urn:pulumi:dev::shop::restcloud:index:${type}::${name}`;

/** Every tag of a record, the owner tag too: key to value. */
async function tagsOn(resourceUuid: string): Promise<Record<string, string>> {
  const tags = await client.resourceTag.list({ resourceUuid });
  return Object.fromEntries(tags.map((t) => [t.key!, t.value!]));
}

const setFaults = (rules: object[]) => setFaultRules(emulator, rules);

/** The API requests of one operation made since the log was last cleared. */
async function requestsOf(operation: string): Promise<number> {
  const log = await fetch(`${emulator.url}/_emulator/requests?operation=${operation}`);
  return ((await log.json()) as { entries: unknown[] }).entries.length;
}
const clearRequests = () => fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });

/** A VPC made as `pulumi up` would: check (with the provider's settings), then create with its URN. */
async function vpc(name: string, args: PropertyMap = {}): Promise<{ id: string; inputs: PropertyMap }> {
  const engine = vpcs();
  const { inputs, failures } = engine.check(
    {},
    { cidr: "10.20.0.0/16", vpcOfferingUuid: catalog.vpcOfferingUuid, ...args },
    { logicalName: name },
  );
  expect(failures).toEqual([]);
  const { id } = await engine.create(inputs, { urn: urn("Vpc", name) });
  return { id, inputs };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 0, seed: 11 });
  catalog = await discoverCatalog(emulator.url);
  client = new RestCloudClient({
    apiUrl: emulator.url,
    apiKey: DEMO_CREDENTIALS.apiKey,
    secretKey: DEMO_CREDENTIALS.secretKey,
    retry: { baseDelayMs: 10, maxDelayMs: 50 },
  } as ConstructorParameters<typeof RestCloudClient>[0]);
});
afterAll(async () => emulator?.stop());
beforeEach(() => {
  settings = { zoneUuid: catalog.zoneUuid, defaultTags: { team: "payments", env: "dev" } };
});
afterEach(async () => setFaults([]));

test("a lifecycle: defaults merged at check, tags made on create, updated in place, drift on refresh, import", async () => {
  // Check: the defaults, then the resource's own (which wins for env); state keeps the merged map.
  const { id, inputs } = await vpc("web", { tags: { env: "prod", app: "web" } });
  expect(inputs.tags).toEqual({ team: "payments", env: "prod", app: "web" });
  expect(await tagsOn(id)).toEqual({ ...(inputs.tags as object), [OWNER_TAG_KEY]: ownerTagValue(urn("Vpc", "web")) });

  // A ResourceTag on another key of the same record lives beside `tags`.
  const tagEngine = engineOf(RESOURCES.ResourceTag);
  const tagInputs = tagEngine.check({}, { resourceType: "Vpc", resourceUuid: id, key: "cost-centre", value: "42" });
  expect(tagInputs.failures).toEqual([]);
  await tagEngine.create(tagInputs.inputs, { urn: urn("ResourceTag", "cc") });

  // Refresh: the declared keys' live values, neither the owner tag nor the ResourceTag's key.
  const engine = vpcs();
  const refreshed = (await engine.read(id, inputs, { urn: urn("Vpc", "web") }))!;
  expect(refreshed.inputs.tags).toEqual(inputs.tags);
  expect(engine.diff(refreshed.inputs, inputs)).toMatchObject({ changes: false });

  // A change of a default, a changed value, an added and a removed key: one in-place update of `tags`.
  settings = { ...settings, defaultTags: { team: "checkout", env: "dev" } };
  const news = engine.check(refreshed.inputs, { ...inputs, tags: { env: "staging", tier: "1" } }).inputs;
  expect(news.tags).toEqual({ team: "checkout", env: "staging", tier: "1" });
  expect(engine.diff(refreshed.inputs, news)).toEqual({
    changes: true,
    replaces: [],
    updates: ["tags"],
    deleteBeforeReplace: false,
  });
  await engine.update(id, refreshed.inputs, news);
  const afterUpdate = await tagsOn(id);
  expect(afterUpdate).toEqual({
    team: "checkout",
    env: "staging",
    tier: "1",
    "cost-centre": "42",
    [OWNER_TAG_KEY]: ownerTagValue(urn("Vpc", "web")),
  });

  // A tag removed outside Pulumi: refresh shows it gone (drift), the next update puts it back.
  const tier = (await client.resourceTag.list({ resourceUuid: id })).find((t) => t.key === "tier")!;
  await client.resourceTag.delete({ uuid: tier.uuid });
  const drifted = (await engine.read(id, news))!;
  expect(drifted.inputs.tags).toEqual({ team: "checkout", env: "staging" });
  expect(engine.diff(drifted.inputs, news).updates).toEqual(["tags"]);
  await engine.update(id, drifted.inputs, news);
  expect(await tagsOn(id)).toEqual(afterUpdate);

  // Import (the id alone): every tag but the owner's, the ResourceTag's key included.
  const imported = (await vpcs().read(id, {}))!;
  expect(imported.inputs.tags).toEqual({ team: "checkout", env: "staging", tier: "1", "cost-centre": "42" });

  // Every key removed: the owner tag and the ResourceTag's key stay.
  settings = { zoneUuid: catalog.zoneUuid };
  const bare = engine.check(news, { ...inputs, tags: undefined }).inputs;
  expect(bare.tags).toBeUndefined();
  await engine.update(id, news, bare);
  expect(await tagsOn(id)).toEqual({ "cost-centre": "42", [OWNER_TAG_KEY]: ownerTagValue(urn("Vpc", "web")) });
});

test("a resource declaring no tags reads none on refresh: no tag request", async () => {
  settings = { zoneUuid: catalog.zoneUuid };
  const { id, inputs } = await vpc("plain");
  expect(inputs.tags).toBeUndefined();
  await clearRequests();
  const refreshed = (await vpcs().read(id, inputs))!;
  expect(refreshed.inputs.tags).toBeUndefined();
  expect(await requestsOf("resourceTagsList")).toBe(0);
});

test("check refuses the owner tag's key, an empty key and a long value, naming `tags`", () => {
  const check = (tags: unknown) =>
    vpcs().check({}, { cidr: "10.0.0.0/16", vpcOfferingUuid: catalog.vpcOfferingUuid, tags }, { logicalName: "x" })
      .failures;
  expect(check({ [OWNER_TAG_KEY]: "mine" })).toEqual([
    {
      property: "tags",
      reason: expect.stringMatching(/^must not hold the key "pulumi-owner": the provider tags every record it creates/),
    },
  ]);
  expect(check({ "": "x" })).toEqual([{ property: "tags", reason: "has an empty key: a tag's key must not be empty" }]);
  expect(check({ app: "x".repeat(256) })).toEqual([{ property: "tags.app", reason: "must be at most 255 characters" }]);
  expect(check(["app"])).toEqual([{ property: "tags", reason: expect.stringMatching(/^must be/) }]);
});

test("a key a ResourceTag holds with another value: the update fails naming the key; the tag is untouched", async () => {
  const { id, inputs } = await vpc("shared");
  await client.resourceTag.create({
    resourceType: "Vpc",
    zoneUuid: catalog.zoneUuid,
    resourceUuid: id,
    key: "app",
    value: "theirs",
  });
  const engine = vpcs();
  const news = engine.check(inputs, { ...inputs, tags: { app: "ours" } }).inputs;
  await expect(engine.update(id, inputs, news)).rejects.toThrow(
    /tag "app" of .* already exists with another value: a ResourceTag or another tool holds this key/,
  );
  expect((await tagsOn(id)).app).toBe("theirs");
});

test("a tag create whose answer is lost is found out, not made twice", async () => {
  const { id, inputs } = await vpc("lossy");
  await setFaults([{ operation: "createTags", effect: "status", when: "after", count: 2 }]);
  const engine = vpcs();
  const news = engine.check(inputs, { ...inputs, tags: { app: "web", tier: "front" } }).inputs;
  await engine.update(id, inputs, news);
  // Both answers were lost after the tags were made.
  const log = (await (await fetch(`${emulator.url}/_emulator/faults/log`)).json()) as {
    entries: { applied: boolean }[];
  };
  expect(log.entries.filter((e) => e.applied)).toHaveLength(2);
  const tags = await client.resourceTag.list({ resourceUuid: id });
  expect(
    tags
      .filter((t) => t.key !== OWNER_TAG_KEY)
      .map((t) => `${t.key}=${t.value}`)
      .sort(),
  ).toEqual(["app=web", "env=dev", "team=payments", "tier=front"]);
});

test("a rule (its zone from its create's answer): tags made after the create; a failed one is finished by the next update", async () => {
  const { id: vpcUuid } = await vpc("rules");
  // No owner tag: the faults below refuse every createTags, the owner's claim too.
  settings = { ...settings, ownerTags: false };
  const ip = engineOf(RESOURCES.PublicIpAddress);
  const address = await ip.create(ip.check({}, { vpcUuid }).inputs, { urn: urn("PublicIpAddress", "ip") });
  const rules = engineOf(RESOURCES.FirewallRule);
  const { inputs } = rules.check(
    {},
    { ipAddressUuid: address.id, protocol: "TCP", startPort: 443, tags: { app: "web" } },
  );
  // Every tag create refused (not ambiguous): the rule exists, its id is kept, marked to finish.
  await setFaults([{ operation: "createTags", effect: "status", status: 500, when: "before", count: 50 }]);
  const failed = await rules.create(inputs, { urn: urn("FirewallRule", "https") }).catch((e: unknown) => e);
  await setFaults([]);
  expect(failed).toBeInstanceOf(ResourceInitError);
  const { id, properties } = failed as ResourceInitError;
  expect(properties.ruleZoneUuid).toBe(catalog.zoneUuid);
  expect(await tagsOn(id)).toEqual({});
  await rules.update(id, properties, inputs, { pendingReady: true });
  expect(await tagsOn(id)).toEqual({ app: "web", team: "payments", env: "dev" });
});
