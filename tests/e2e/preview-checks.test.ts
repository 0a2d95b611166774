/**
 * What `pulumi preview` catches before anything is created, beyond the arguments' own shape
 * (tests/e2e/reliability/bad-input.test.ts):
 *
 * - references the catalog can check (a zone, given or the provider's default; a VPC, network,
 *   compute or storage offering; a template; a Kubernetes version): each unknown uuid fails the
 *   preview with a message naming the resource, the argument and where the right ones are listed;
 *   a resource whose references are all right previews as a create;
 * - a failing function (no match, wrong credentials): the message names the function and says
 *   what went wrong, with no ANSI code and no stack trace.
 *
 * Not one mutating request reaches the service.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { discoverCatalog, providerConfig, type CatalogIds } from "./catalog-ids";
import { REPO_ROOT, TestStack } from "./harness";

jest.setTimeout(300_000);

const PROGRAM = path.join(REPO_ROOT, "tests", "e2e", "programs", "one-resource");
/** A well-formed uuid that no catalog holds. */
const NOWHERE = "4f000000-0000-4000-8000-00000000dead";

interface Case {
  what: string;
  case: { type?: string; function?: string; args: Record<string, unknown> };
  /** Extra stack config (e.g. a default zone). */
  config?: Record<string, string>;
  /** A line of the output that must be there; none for a case that must pass. */
  expected?: RegExp;
}

let emulator: RunningEmulator;
let ids: CatalogIds;
const stacks: TestStack[] = [];
const idle: TestStack[] = [];

function cases(): Case[] {
  const { zoneUuid } = ids;
  const vpc = { zoneUuid, cidr: "10.1.0.0/16", vpcOfferingUuid: ids.vpcOfferingUuid };
  const instance = {
    zoneUuid,
    templateUuid: ids.ubuntuTemplateUuid,
    computeOfferingUuid: ids.smallPlanUuid,
    networkUuid: NOWHERE, // a live record, not in the catalog: left to the API
  };
  const zone = "Frankfurt 1";
  const field = (type: string, name: string, list: string, what: string) =>
    new RegExp(
      `restcloud:${type} resource 'one': property ${name} value .* has a problem: must be the uuid of a ${what} of zone ${zone} \\(${list} lists them\\); none has this uuid`,
    );
  return [
    {
      what: "a zone that does not exist",
      case: { type: "Vpc", args: { ...vpc, zoneUuid: NOWHERE } },
      expected:
        /restcloud:Vpc resource 'one': property zoneUuid value .* has a problem: must be the uuid of a zone \(getZones lists them: .*Frankfurt 1.*\); none has this uuid/,
    },
    {
      what: "a default zone (restcloud:zoneUuid) that does not exist",
      case: { type: "Vpc", args: { cidr: "10.1.0.0/16", vpcOfferingUuid: ids.vpcOfferingUuid } },
      config: { "restcloud:zoneUuid": NOWHERE },
      expected: /restcloud:Vpc resource 'one': property zoneUuid value .* has a problem: must be the uuid of a zone/,
    },
    {
      what: "an unknown VPC offering",
      case: { type: "Vpc", args: { ...vpc, vpcOfferingUuid: NOWHERE } },
      expected: field("Vpc", "vpcOfferingUuid", "getVpcOfferings", "VPC offering"),
    },
    {
      what: "an unknown network offering",
      case: {
        type: "VpcTier",
        args: { zoneUuid, vpcUuid: NOWHERE, cidr: "10.1.1.0/24", networkOfferingUuid: NOWHERE },
      },
      expected: field("VpcTier", "networkOfferingUuid", "getNetworkOfferings", "network offering"),
    },
    {
      what: "an unknown template",
      case: { type: "Instance", args: { ...instance, templateUuid: NOWHERE } },
      expected: field("Instance", "templateUuid", "getTemplates", "template"),
    },
    {
      what: "an unknown compute plan",
      case: { type: "Instance", args: { ...instance, computeOfferingUuid: NOWHERE } },
      expected: field("Instance", "computeOfferingUuid", "getComputePlans", "compute plan"),
    },
    {
      what: "an unknown storage plan",
      case: { type: "Volume", args: { zoneUuid, storageOfferingUuid: NOWHERE, size: 20 } },
      expected: field("Volume", "storageOfferingUuid", "getStoragePlans", "storage plan"),
    },
    {
      what: "an unknown Kubernetes version",
      case: {
        type: "KubernetesCluster",
        args: {
          zoneUuid,
          kubernetesVersionUuid: NOWHERE,
          computeOfferingUuid: ids.largePlanUuid,
          networkUuid: NOWHERE,
          size: 2,
        },
      },
      expected: field("KubernetesCluster", "kubernetesVersionUuid", "getKubernetesVersions", "Kubernetes version"),
    },
    { what: "every reference right (control)", case: { type: "Instance", args: instance } },
    {
      what: "a function that finds nothing",
      case: { function: "getZone", args: { nameRegex: "atlantis" } },
      expected: /error: restcloud\.getZone: no zone matches \{"nameRegex":"atlantis"\}/,
    },
    {
      what: "a function called with wrong credentials",
      case: { function: "getZones", args: {} },
      config: { "restcloud:apiKey": "wrong-key" },
      expected: /error: restcloud\.getZones: [\w-]+ failed: HTTP 401 UNAUTHORIZED: /,
    },
  ];
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  ids = await discoverCatalog(emulator.url);
  for (let i = 0; i < 2; i++) {
    const stack = await TestStack.create({
      programDir: PROGRAM,
      stackName: `preview-checks-${i}-${process.pid}`,
      config: providerConfig(emulator.url),
    });
    stacks.push(stack);
    idle.push(stack);
  }
});

afterAll(async () => {
  for (const stack of stacks) await stack.dispose();
  await emulator?.stop();
});

/** The preview's whole output, and whether it passed. */
async function preview(c: Case): Promise<{ passed: boolean; output: string; planned?: string }> {
  while (idle.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  const stack = idle.pop()!;
  const extra = Object.keys(c.config ?? {});
  try {
    await stack.setConfig("case", JSON.stringify(c.case));
    for (const key of extra) await stack.setConfig(key, c.config![key], key.endsWith("Key"));
    const result = await stack.preview();
    return { passed: true, output: result.stdout + result.stderr, planned: result.operations.one };
  } catch (error) {
    return { passed: false, output: String(error) };
  } finally {
    for (const key of extra) await stack.stack.removeConfig(key);
    if (extra.includes("restcloud:apiKey")) await stack.setConfig("restcloud:apiKey", providerConfigKey(), true);
    idle.push(stack);
  }
}

const providerConfigKey = () => (providerConfig(emulator.url)["restcloud:apiKey"] as { value: string }).value;

test("unknown references and failing functions fail at preview, saying what is wrong, and change nothing", async () => {
  const all = cases();
  const started = Date.now();
  const results = await Promise.all(all.map((c) => preview(c)));
  console.log(`${all.length} previews in ${Date.now() - started} ms`);
  const wrong: string[] = [];
  all.forEach((c, i) => {
    const { passed, output, planned } = results[i];
    if (!c.expected) {
      if (!passed || planned !== "create")
        wrong.push(`${c.what}: expected a planned create, got: ${output.slice(0, 400)}`);
      return;
    }
    if (passed) wrong.push(`${c.what}: the preview passed`);
    else if (!c.expected.test(output))
      wrong.push(`${c.what}: no line matches ${c.expected}:\n${output.slice(0, 1500)}`);
    // eslint-disable-next-line no-control-regex
    if (/\u001b\[/.test(output)) wrong.push(`${c.what}: ANSI codes in the output`);
    if (/\n\s+at .*\.(js|ts):\d+/.test(output)) wrong.push(`${c.what}: a stack trace in the output`);
    if (/provider\/client\/http\.ts|\.ts:\d+:\d+/.test(output)) wrong.push(`${c.what}: a source file in the output`);
  });
  expect(wrong).toEqual([]);
  const stats = (await (await fetch(`${emulator.url}/_emulator/stats`)).json()) as { mutating: number };
  expect(stats.mutating).toBe(0);
});
