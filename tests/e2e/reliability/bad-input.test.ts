/**
 * Bad input: a table of invalid programs (wrong types, out-of-range numbers, unknown enum values,
 * malformed CIDRs and addresses, empty references, missing required arguments, conflicting
 * arguments, unknown arguments), each one resource named "bad". Every one fails at `pulumi preview`
 * with a message that names the resource, the field and the reason, and not one mutating request
 * reaches the service (GET /_emulator/stats).
 *
 * The cases run as previews of one program whose `case` config picks the resource, on a few stacks
 * at once (each case is a separate `pulumi preview`), in the native mode: the checks are the engine's,
 * the same in both modes, and the plugin starts sooner than the dynamic provider. The dynamic front
 * end's check failures are preview-checks.test.ts's.
 */
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { providerConfig } from "../catalog-ids";
import { TestStack } from "../harness";
import { NATIVE_MODE } from "../native/native-helpers";
import { PROGRAMS, emulatorStats } from "./helpers";

jest.setTimeout(300_000);

/** A well-formed id; never looked up, since every case fails before any call. */
const ID = "4f000000-0000-4000-8000-000000000001";
const SECRET_VALUE = 90417733;

interface BadCase {
  what: string;
  type: string;
  args: Record<string, unknown>;
  /** The field the message must name. */
  field: string;
  /** What the message must say of it. */
  reason: RegExp;
}

const vpc = { cidr: "10.1.0.0/16", vpcOfferingUuid: ID };
const tier = { vpcUuid: ID, cidr: "10.1.1.0/24", networkOfferingUuid: ID };
const instance = { templateUuid: ID, computeOfferingUuid: ID, networkUuid: ID };
const volume = { storageOfferingUuid: ID, size: 20 };
const firewall = { ipAddressUuid: ID, protocol: "TCP", startPort: 443 };
const egress = { networkUuid: ID, protocol: "TCP", startPort: 80 };
const cluster = { kubernetesVersionUuid: ID, computeOfferingUuid: ID, networkUuid: ID, size: 2 };
const gateway = {
  gateway: "198.51.100.7",
  cidrList: "192.168.10.0/24",
  ipsecPresharedKey: "a-pre-shared-key",
  ikePolicy: "Group 14(modp2048)",
  ikeEncryption: "aes256",
  ikeHash: "sha256",
  espEncryption: "aes256",
  espHash: "sha256",
};
const without = <T extends object>(args: T, key: keyof T) =>
  Object.fromEntries(Object.entries(args).filter(([k]) => k !== key));

/** A number out of range: the message names the range ("must be a whole number from 1 to 128"). */
const OUT_OF_RANGE = /must be a whole number from -?\d+ to \d+/;

const CASES: BadCase[] = [
  // wrong types
  {
    what: "a number as a name",
    type: "Vpc",
    args: { ...vpc, name: 42 },
    field: "name",
    reason: /must be a string, not a number/,
  },
  {
    what: "text as a boolean",
    type: "Network",
    args: { networkOfferingUuid: ID, isPublic: "yes" },
    field: "isPublic",
    reason: /must be true or false, not a string/,
  },
  {
    what: "one id where a list is expected",
    type: "Instance",
    args: { ...instance, additionalNetworkUuids: ID },
    field: "additionalNetworkUuids",
    reason: /must be a list, not a string/,
  },
  {
    what: "text as a port",
    type: "FirewallRule",
    args: { ...firewall, startPort: "443" },
    field: "startPort",
    reason: /port number/,
  },
  {
    what: "a number as a secret",
    type: "VpnCustomerGateway",
    args: { ...gateway, ipsecPresharedKey: SECRET_VALUE },
    field: "ipsecPresharedKey",
    reason: /must be a string, not a number/,
  },
  // out of range
  { what: "a size of 0 GB", type: "Volume", args: { ...volume, size: 0 }, field: "size", reason: OUT_OF_RANGE },
  { what: "a fractional size", type: "Volume", args: { ...volume, size: 1.5 }, field: "size", reason: /whole number/ },
  {
    what: "0 vCPUs",
    type: "Instance",
    args: { ...instance, cpuCore: 0, memory: 1024 },
    field: "cpuCore",
    reason: OUT_OF_RANGE,
  },
  {
    what: "port 70000",
    type: "FirewallRule",
    args: { ...firewall, startPort: 70000 },
    field: "startPort",
    reason: /between 1 and 65535/,
  },
  {
    what: "ICMP type 300",
    type: "FirewallRule",
    args: { ipAddressUuid: ID, protocol: "ICMP", icmpType: 300 },
    field: "icmpType",
    reason: OUT_OF_RANGE,
  },
  {
    what: "an end port before the start port",
    type: "EgressRule",
    args: { ...egress, startPort: 8080, endPort: 80 },
    field: "endPort",
    reason: /greater than or equal to startPort/,
  },
  {
    what: "no worker node",
    type: "KubernetesCluster",
    args: { ...cluster, size: 0 },
    field: "size",
    reason: OUT_OF_RANGE,
  },
  // unknown enum values
  {
    what: "a power state of Paused",
    type: "Instance",
    args: { ...instance, state: "Paused" },
    field: "state",
    reason: /Running or Stopped/,
  },
  {
    what: "protocol HTTP",
    type: "FirewallRule",
    args: { ...firewall, protocol: "HTTP" },
    field: "protocol",
    reason: /TCP, UDP, ICMP/,
  },
  {
    what: "a lower-case protocol",
    type: "EgressRule",
    args: { ...egress, protocol: "tcp" },
    field: "protocol",
    reason: /TCP, UDP, ICMP/,
  },
  {
    what: "encryption aes512",
    type: "VpnCustomerGateway",
    args: { ...gateway, ikeEncryption: "aes512" },
    field: "ikeEncryption",
    reason: /aes128, aes192, aes256, 3des/,
  },
  // CIDRs and addresses
  { what: "a CIDR without prefix", type: "Vpc", args: { ...vpc, cidr: "10.1.0.0" }, field: "cidr", reason: /CIDR/ },
  {
    what: "a CIDR with host bits",
    type: "Vpc",
    args: { ...vpc, cidr: "10.1.2.3/16" },
    field: "cidr",
    reason: /host bits/,
  },
  {
    what: "a tier smaller than a /29",
    type: "VpcTier",
    args: { ...tier, cidr: "10.1.1.0/30" },
    field: "cidr",
    reason: /\/29/,
  },
  {
    what: "a bad block in a CIDR list",
    type: "FirewallRule",
    args: { ...firewall, cidrList: "0.0.0.0/0,10.0.0.0/33" },
    field: "cidrList",
    reason: /10\.0\.0\.0\/33.*CIDR/,
  },
  {
    what: "a gateway of 10.1.1.300",
    type: "VpcTier",
    args: { ...tier, gateway: "10.1.1.300" },
    field: "gateway",
    reason: /IPv4 address/,
  },
  // references
  {
    what: "an empty VPC reference",
    type: "VpcTier",
    args: { ...tier, vpcUuid: "" },
    field: "vpcUuid",
    reason: /must not be empty/,
  },
  {
    what: "a number as a network reference",
    type: "Instance",
    args: { ...instance, networkUuid: 7 },
    field: "networkUuid",
    reason: /must be a string, not a number/,
  },
  // missing required arguments
  { what: "no CIDR", type: "Vpc", args: without(vpc, "cidr"), field: "cidr", reason: /is required/ },
  {
    what: "no network offering",
    type: "Network",
    args: {},
    field: "networkOfferingUuid",
    reason: /is required/,
  },
  {
    what: "no template",
    type: "Instance",
    args: without(instance, "templateUuid"),
    field: "templateUuid",
    reason: /is required/,
  },
  {
    what: "no pre-shared key",
    type: "VpnCustomerGateway",
    args: without(gateway, "ipsecPresharedKey"),
    field: "ipsecPresharedKey",
    reason: /is required/,
  },
  // conflicting arguments
  {
    what: "both a network and a VPC",
    type: "PublicIpAddress",
    args: { networkUuid: ID, vpcUuid: ID },
    field: "networkUuid",
    reason: /exactly one of networkUuid and vpcUuid/,
  },
  {
    what: "vCPUs without memory",
    type: "Instance",
    args: { ...instance, cpuCore: 2 },
    field: "memory",
    reason: /cpuCore and memory go together/,
  },
  {
    what: "a data disk without its storage plan",
    type: "Instance",
    args: { ...instance, diskSize: 50 },
    field: "storageOfferingUuid",
    reason: /required with diskSize/,
  },
  {
    what: "ports on an ICMP rule",
    type: "FirewallRule",
    args: { ...firewall, protocol: "ICMP" },
    field: "startPort",
    reason: /must not be set for ICMP/,
  },
  // unknown arguments
  {
    what: "a misspelt argument",
    type: "Vpc",
    args: { ...vpc, descripton: "typo" },
    field: "descripton",
    reason: /not an argument of Vpc/,
  },
];

/** Previews at once: each is a CLI, a program and a provider process, on 2 cores. */
const STACKS = 3;

describe(`${CASES.length} invalid programs`, () => {
  let emulator: RunningEmulator;
  const idle: TestStack[] = [];
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    for (let i = 0; i < STACKS; i++) {
      const stack = await TestStack.create({
        programDir: path.join(PROGRAMS, "bad-input"),
        stackName: `bad-input-${i}`,
        config: { ...providerConfig(emulator.url, ID), ...NATIVE_MODE },
      });
      stacks.push(stack);
      idle.push(stack);
    }
  });

  afterAll(async () => {
    for (const stack of stacks) await stack.dispose();
    await emulator?.stop();
  });

  /** The preview's error output for one case; undefined when the preview passed. */
  async function preview(c: BadCase): Promise<string | undefined> {
    while (idle.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const stack = idle.pop()!;
    try {
      await stack.setConfig("case", JSON.stringify({ type: c.type, args: c.args }));
      await stack.preview();
      return undefined;
    } catch (error) {
      return String(error);
    } finally {
      idle.push(stack);
    }
  }

  /** What is wrong with the message of one case, or undefined when it says what it should. */
  function judge(c: BadCase, output: string | undefined): string | undefined {
    if (output === undefined) return "the preview passed";
    const line = output
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.includes(`restcloud:index:${c.type} resource 'bad': property ${c.field} value`));
    if (!line) return `no message names 'bad' and ${c.field}: ${output.split("\n").find((l) => /error:/.test(l))}`;
    if (output.includes(String(SECRET_VALUE))) return "the message shows the secret's value";
    const reason = line.slice(line.indexOf("has a problem:") + "has a problem:".length).trim();
    if (!c.reason.test(reason)) return `the reason is "${reason}", expected ${c.reason}`;
    return undefined;
  }

  test("each fails at preview, naming the resource, the field and the reason", async () => {
    const started = Date.now();
    const outputs = await Promise.all(CASES.map((c) => preview(c)));
    const wrong = CASES.map((c, i) => ({ c, problem: judge(c, outputs[i]) }))
      .filter(({ problem }) => problem !== undefined)
      .map(({ c, problem }) => `${c.type}, ${c.what}: ${problem}`);
    console.log(`${CASES.length} previews on ${STACKS} stacks in ${Date.now() - started} ms`);
    expect(wrong).toEqual([]);
  });

  test("no mutating request reached the service", async () => {
    const stats = await emulatorStats(emulator.url);
    expect(stats.mutating).toBe(0);
  });
});
