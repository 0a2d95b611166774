// The pack's cost policies against the emulator's live catalog over HTTP, with the API's URL and keys as the engine
// hands them (the analyzer's ConfigureStack request, kept by stack-config.ts) or from RESTCLOUD_*: the stack's total
// over a budget, a resource over a cap, and what cannot be priced named rather than counted as 0 (a value known only
// after apply, a plan the catalog lacks, missing settings, an API that does not answer). The expected figures are
// the catalog's own rows (a VPC offering's total and the zone's IP price, per month).
import { AnalyzerStackConfigureRequest } from "@pulumi/pulumi/proto/analyzer_pb";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import { RestCloudClient } from "../../../provider/client";
import { budgetPolicy, capPolicy } from "../../../provider/policy/cost";
import { keepStackConfig } from "../../../provider/policy/stack-config";
import { runStackPolicy, UNKNOWN, type Described } from "../../unit/policy/policy-harness";

const DEMO = { apiKey: "demo-api-key", secretKey: "demo-secret-key" };
const ZONE = CATALOG_IDS.zones.frankfurt;

let emulator: RunningEmulator;
/** The catalog's monthly prices: the standard VPC offering, and a public IP. */
let vpcPrice: number;
let ipPrice: number;
let forwardingPrice: number;
let zoneName: string;

/** Configures the pack as the engine would: the stack's config in a ConfigureStack request. */
function configureStack(config: Record<string, string>): void {
  const request = new AnalyzerStackConfigureRequest();
  for (const [key, value] of Object.entries(config)) request.getConfigMap().set(key, value);
  keepStackConfig(request);
}
const stackConfig = (apiUrl: string) => ({
  "restcloud:apiUrl": apiUrl,
  "restcloud:apiKey": DEMO.apiKey,
  "restcloud:secretKey": DEMO.secretKey,
  "restcloud:zoneUuid": ZONE,
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  const client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO });
  const offering = (await client.costEstimate.vpcOfferings({ zoneUuid: ZONE })).find(
    (o) => o.uuid === CATALOG_IDS.vpcOfferings.standard,
  )!;
  vpcPrice = offering.totalCost!;
  ipPrice = (await client.costEstimate.ipCost({ zoneUuid: ZONE })).ipCost!;
  forwardingPrice = (await client.costEstimate.portForwardingCost({ zoneUuid: ZONE })).portForwardCost!;
  zoneName = (await client.costEstimate.zones()).find((z) => z.uuid === ZONE)!.name!;
});
afterAll(async () => {
  await emulator?.stop();
});
// The settings come from the stack's config, else RESTCLOUD_*: none of those of the test's own environment.
const SETTINGS_ENV = ["RESTCLOUD_API_URL", "RESTCLOUD_API_KEY", "RESTCLOUD_SECRET_KEY", "RESTCLOUD_ZONE_UUID"];
const savedEnv = Object.fromEntries(SETTINGS_ENV.map((key) => [key, process.env[key]]));
beforeEach(() => {
  for (const key of SETTINGS_ENV) delete process.env[key];
  configureStack(stackConfig(emulator.url));
});
afterAll(() => {
  for (const [key, value] of Object.entries(savedEnv)) if (value !== undefined) process.env[key] = value;
});

const money = (n: number) => n.toFixed(2);

// A dynamic-mode VPC (its zone given), a native-mode public IP on it (its zone the stack's default), a free rule.
const vpc: Described = {
  kind: "Vpc",
  name: "net",
  dynamic: true,
  props: { name: "net", cidr: "10.0.0.0/16", vpcOfferingUuid: CATALOG_IDS.vpcOfferings.standard, zoneUuid: ZONE },
};
const ip: Described = {
  kind: "PublicIpAddress",
  name: "ip",
  props: { vpcUuid: UNKNOWN, uuid: UNKNOWN },
  from: { vpcUuid: ["net"] },
};
const rule: Described = {
  kind: "FirewallRule",
  name: "ssh",
  props: { ipAddressUuid: UNKNOWN, protocol: "TCP", startPort: 22 },
  from: { ipAddressUuid: ["ip"] },
};
/** A native-mode forwarding rule at preview: its zone (ruleZoneUuid, an output) not known yet, that of its address. */
const forwarding: Described = {
  kind: "PortForwardingRule",
  name: "ssh-in",
  props: { ipAddressUuid: UNKNOWN, protocol: "TCP", publicPort: 2222, privatePort: 22, ruleZoneUuid: UNKNOWN },
  from: { ipAddressUuid: ["ip"] },
};
/** An instance whose plan is known only after apply (another resource's output). */
const instance: Described = {
  kind: "Instance",
  name: "app",
  props: { computeOfferingUuid: UNKNOWN, templateUuid: CATALOG_IDS.templates.debian12, zoneUuid: ZONE },
};

describe("monthly-budget", () => {
  test("over the budget: the total and each resource's share, from the stack's config", async () => {
    const total = vpcPrice + ipPrice + forwardingPrice;
    expect(await runStackPolicy(budgetPolicy, [vpc, ip, rule, forwarding], { maxMonthly: 1 })).toEqual([
      {
        message:
          `the monthly total ${money(total)} EUR is over the budget of 1.00 EUR (maxMonthly):\n` +
          `  - Vpc net: ${money(vpcPrice)} EUR\n  - PublicIpAddress ip: ${money(ipPrice)} EUR\n` +
          `  - PortForwardingRule ssh-in: ${money(forwardingPrice)} EUR`,
      },
    ]);
    expect(await runStackPolicy(budgetPolicy, [vpc, ip, rule, forwarding], { maxMonthly: total })).toEqual([]);
    // In another of the catalog's currencies.
    const [usd] = (await runStackPolicy(budgetPolicy, [vpc, ip, rule], { maxMonthly: 1, currency: "USD" })) as {
      message: string;
    }[];
    expect(usd!.message).toMatch(
      new RegExp(`^the monthly total ${money((vpcPrice + ipPrice) * 1.08)} USD is over the budget of 1\\.00 USD`),
    );
  });

  test("no maxMonthly: the policy does not apply", async () => {
    expect(await runStackPolicy(budgetPolicy, [vpc, ip])).toEqual({ notApplicable: "no maxMonthly is set" });
  });

  test("a cost not known until apply makes a budget within reach uncheckable, named; over it anyway, it is listed", async () => {
    expect(await runStackPolicy(budgetPolicy, [vpc, ip, instance], { maxMonthly: 1000 })).toEqual([
      {
        message:
          `the budget of 1,000.00 EUR cannot be checked: the known monthly total is ${money(vpcPrice + ipPrice)} EUR, ` +
          "and these costs are not known until apply (never counted as 0):\n" +
          "  - Instance app: Compute: computeOfferingUuid is known only after apply",
      },
    ]);
    const [over] = (await runStackPolicy(budgetPolicy, [vpc, ip, instance], { maxMonthly: 1 })) as {
      message: string;
    }[];
    expect(over!.message).toMatch(
      /\n {2}- PublicIpAddress ip: .+\nand, not known until apply \(not counted\):\n {2}- Instance app: Compute: computeOfferingUuid is known only after apply$/,
    );
  });

  test("what cannot be priced is named: an offering the catalog lacks, missing settings, an API that does not answer", async () => {
    const unknownOffering = {
      ...vpc,
      props: { ...vpc.props, vpcOfferingUuid: "4f000000-0000-4000-8000-0000000000ff" },
    };
    expect(await runStackPolicy(budgetPolicy, [unknownOffering], { maxMonthly: 100 })).toEqual([
      {
        message:
          `the budget of 100.00 cannot be checked: the stack could not be priced from the cost catalog of ${emulator.url}:\n` +
          "  - Vpc net: vpcOfferingUuid: no VPC offering 4f000000-0000-4000-8000-0000000000ff in the catalog of zone " +
          `${zoneName} (${ZONE})`,
      },
    ]);

    configureStack({});
    const [missing] = (await runStackPolicy(budgetPolicy, [vpc], { maxMonthly: 100 })) as { message: string }[];
    expect(missing!.message).toBe(
      "the budget of 100.00 cannot be checked: the stack could not be priced from the cost catalog of the API:\n" +
        "  - settings: apiUrl is not set (pulumi config set restcloud:apiUrl <value>, or RESTCLOUD_API_URL)\n" +
        "  - settings: apiKey is not set (pulumi config set --secret restcloud:apiKey <value>, or RESTCLOUD_API_KEY)\n" +
        "  - settings: secretKey is not set (pulumi config set --secret restcloud:secretKey <value>, or RESTCLOUD_SECRET_KEY)",
    );

    configureStack({ ...stackConfig("http://127.0.0.1:9"), "restcloud:requestTimeout": "2s" });
    const [silent] = (await runStackPolicy(budgetPolicy, [vpc], { maxMonthly: 100 })) as { message: string }[];
    expect(silent!.message).toMatch(
      /^the budget of 100\.00 cannot be checked: the stack could not be priced from the cost catalog of http:\/\/127\.0\.0\.1:9:\n {2}- the API did not answer \(.+\); the estimate needs its cost catalog$/,
    );
  });

  test("with no stack config, the settings come from RESTCLOUD_*", async () => {
    configureStack({});
    const env = {
      RESTCLOUD_API_URL: emulator.url,
      RESTCLOUD_API_KEY: DEMO.apiKey,
      RESTCLOUD_SECRET_KEY: DEMO.secretKey,
    };
    Object.assign(process.env, env);
    try {
      const [over] = (await runStackPolicy(budgetPolicy, [vpc], { maxMonthly: 1 })) as { message: string }[];
      expect(over!.message).toMatch(new RegExp(`^the monthly total ${money(vpcPrice)} EUR is over the budget`));
    } finally {
      for (const key of Object.keys(env)) delete process.env[key];
    }
  });
});

describe("resource-monthly-cap", () => {
  test("each resource over the cap is named with its components; one not known until apply, as uncheckable", async () => {
    const cap = (vpcPrice + ipPrice) / 2;
    expect(ipPrice).toBeLessThan(cap); // the VPC alone is over it
    const [over, unknown, ...rest] = (await runStackPolicy(capPolicy, [vpc, ip, rule, instance], {
      maxMonthly: cap,
    })) as {
      message: string;
      resource?: string;
    }[];
    expect(rest).toEqual([]);
    expect(over).toEqual({
      resource: "net",
      message: `Vpc net costs ${money(vpcPrice)} EUR a month, over the cap of ${money(cap)} EUR a resource (maxMonthly): VPC offering ${money(vpcPrice)}`,
    });
    expect(unknown).toEqual({
      resource: "app",
      message: `Instance app's monthly cost cannot be checked against the cap of ${money(cap)} EUR a resource (maxMonthly): Compute: computeOfferingUuid is known only after apply (known: 0.00 EUR, never counting the rest as 0)`,
    });
  });
});
