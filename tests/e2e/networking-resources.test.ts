/**
 * The networking resources through their whole lifecycle with the real Pulumi CLI against the
 * emulator: create, a no-change preview, updates in place that reach the emulator, replacements,
 * drift found by refresh, out-of-band deletes dropped by refresh and recreated by up, and a destroy
 * that leaves the account empty. Also: the state holds neither credential nor pre-shared key in
 * plain text.
 */
import type { RunningEmulator } from "../../emulator";
import type { RestCloudClient } from "../../provider/client";
import { DEMO_KEYS, type CatalogIds } from "./catalog-ids";
import type { TestStack } from "./harness";
import { expected, operationsOf, resourceStack } from "./resource-stack";

jest.setTimeout(900_000);

const PSK = "psk-e2e-initial-3b9c41";
const PSK2 = "psk-e2e-rotated-8d02e7";
const BASE = ["network", "instance", "vpc", "tier", "lbIp", "natIp", "natIp2", "vpnIp", "vpnIp2"];
const SECURITY_GROUP = ["group", "sgHttps", "sgSsh", "sgEgress", "sgForward"];
const NETWORKING = [...SECURITY_GROUP, "nat", "remoteVpn", "forward", "lb", "ilb", "cgw", "vpn"];
const ALL = [...BASE, ...NETWORKING];
const UPDATABLE = ["lb", "cgw", "vpn"];
const REPLACING = NETWORKING.filter((n) => n !== "cgw");

const others = (names: string[]) => ALL.filter((n) => !names.includes(n));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("networking resources with the real Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let client: RestCloudClient;
  let catalog: CatalogIds;
  let stack: TestStack;

  beforeAll(async () => {
    ({ emulator, client, catalog, stack } = await resourceStack("networking", {
      psk: { value: PSK, secret: true },
      psk2: { value: PSK2, secret: true },
    }));
  });

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
  });

  async function accountCollections(): Promise<Record<string, Record<string, unknown>>> {
    const response = await fetch(`${emulator.url}/_emulator/resources?account=demo`);
    return (await response.json()) as Record<string, Record<string, unknown>>;
  }
  async function operationCounts(): Promise<Record<string, number>> {
    const response = await fetch(`${emulator.url}/_emulator/stats`);
    return ((await response.json()) as { byOperation: Record<string, number> }).byOperation;
  }
  const group = async (uuid: string) => (await client.securityGroup.list({ uuid }))[0];
  const lbRule = async (uuid: string) => (await client.loadBalancerRule.list({ zoneUuid: catalog.zoneUuid, uuid }))[0];
  const gateway = async (uuid: string) => (await client.vpnCustomerGateway.list({ uuid }))[0];
  const connection = async (uuid: string) => (await client.vpnConnection.list({ zoneUuid: catalog.zoneUuid, uuid }))[0];
  const internalLb = async (name: string) =>
    (await client.internalLb.list({ zoneUuid: catalog.zoneUuid, uuid: name })).find((l) => l.name === name);
  const publicIpsOf = async (instanceUuid: string) =>
    (await client.instance.networks({ uuid: instanceUuid })).map((n) => n.publicIp).filter(Boolean);

  test("up creates every resource; a second preview finds no change", async () => {
    const created = await stack.up();
    expect(operationsOf(created.operations, ALL)).toEqual(expected("create", ALL));
    const out = created.outputs as Record<string, string>;

    const sg = await group(out.groupId);
    expect(sg.securityGroupFirewallRule?.map((r) => r.uuid).sort()).toEqual([out.sgHttpsId, out.sgSshId].sort());
    expect(sg.securityGroupFirewallRule?.find((r) => r.uuid === out.sgSshId)).toMatchObject({
      startPort: "22",
      cidrList: "10.0.0.0/8,192.168.0.0/16",
    });
    expect(sg.securityGroupEgressRule).toEqual([expect.objectContaining({ uuid: out.sgEgressId, startPort: "443" })]);
    expect(sg.securityGroupPortForwarding).toEqual([
      expect.objectContaining({ uuid: out.sgForwardId, publicPort: "8080", privateEndPort: "81" }),
    ]);
    expect(out.natAddress).toBe(out.natIpAddress);
    expect(await publicIpsOf(out.instanceId)).toEqual([out.natIpAddress]);
    expect(await lbRule(out.lbId)).toMatchObject({
      name: "e2e-web",
      algorithm: "roundrobin",
      state: "Active",
      stickinessName: "web-sticky",
    });
    expect(out.ilbId).toMatch(/^ilb-/); // auto-named: the name is the id
    expect(await internalLb(out.ilbId)).toMatchObject({ status: "Active", sourceIpAddress: out.ilbAddress });
    expect(await gateway(out.cgwId)).toMatchObject({ name: "e2e-office", ipsecPresharedKey: PSK });
    expect(out.cgwPsk).toBe(PSK); // an output, decrypted by the harness
    expect(out.vpnState).toBe("Connected");
    expect(Object.keys((await accountCollections()).remotevpnaccess ?? {})).toEqual([out.remoteVpnId]);

    const again = await stack.preview({ expectNoChanges: true });
    expect(operationsOf(again.operations, ALL)).toEqual(expected("same", ALL));
  });

  test("changed updatable arguments update in place, and the changes reach the emulator", async () => {
    await stack.setConfig("step", "1");
    const before = await operationCounts();
    const updated = await stack.up();
    expect(operationsOf(updated.operations, UPDATABLE)).toEqual(expected("update", UPDATABLE));
    expect(operationsOf(updated.operations, others(UPDATABLE))).toEqual(expected("same", others(UPDATABLE)));
    const out = updated.outputs as Record<string, string>;
    expect(await lbRule(out.lbId)).toMatchObject({ name: "e2e-web-renamed", algorithm: "leastconn" });
    expect(await gateway(out.cgwId)).toMatchObject({
      name: "e2e-office-renamed",
      gateway: "198.51.100.8",
      ikelifetime: "28800",
      dpd: true,
      ipsecPresharedKey: PSK2,
    });
    // The connection was reset (once) and settled again, and took the gateway's new address.
    const after = await operationCounts();
    expect((after.resetVpnConnection ?? 0) - (before.resetVpnConnection ?? 0)).toBe(1);
    expect(await connection(out.vpnId)).toMatchObject({ state: "Connected", gateway: "198.51.100.8" });
    await stack.preview({ expectNoChanges: true });
  });

  test("changed replacing arguments replace, and the old records are gone", async () => {
    const before = (await stack.outputs()) as Record<string, string>;
    await stack.setConfig("step", "2");
    const replaced = await stack.up();
    expect(operationsOf(replaced.operations, REPLACING)).toEqual(expected("replace", REPLACING));
    expect(operationsOf(replaced.operations, others(REPLACING))).toEqual(expected("same", others(REPLACING)));
    const out = replaced.outputs as Record<string, string>;

    expect(await group(before.groupId)).toBeUndefined();
    const sg = await group(out.groupId);
    expect(sg).toMatchObject({ description: "web servers v2" });
    expect(sg.securityGroupFirewallRule).toHaveLength(2);
    expect(sg.securityGroupEgressRule).toEqual([expect.objectContaining({ uuid: out.sgEgressId, startPort: "8443" })]);
    // Static NAT moved to the second address; remote access to the VPC's address.
    expect(out.natId).not.toBe(before.natId);
    expect(await publicIpsOf(out.instanceId)).toEqual([out.natIp2Address]);
    expect(Object.keys((await accountCollections()).remotevpnaccess ?? {})).toEqual([out.remoteVpnId]);
    const forwards = await client.portForwardingRule.list({ zoneUuid: catalog.zoneUuid });
    expect(forwards.map((r) => [r.uuid, r.publicPort])).toEqual([[out.forwardId, "2223"]]);
    expect(await lbRule(before.lbId)).toBeUndefined();
    expect(await lbRule(out.lbId)).toMatchObject({ privatePort: "8081", name: "e2e-web-renamed" });
    // Auto-named: the replacement has a new name (its id), and the old name is gone.
    expect(await internalLb(before.ilbId)).toBeUndefined();
    expect(await internalLb(out.ilbId)).toMatchObject({ sourcePort: "8080" });
    expect(await connection(before.vpnId)).toBeUndefined();
    expect(out.vpnState).toBe("Disconnected"); // passive: waits for the remote end
  });

  test("an out-of-band change is found by refresh and undone by up", async () => {
    const out = (await stack.outputs()) as Record<string, string>;
    await client.vpnCustomerGateway.update({ uuid: out.cgwId, gateway: "203.0.113.99", dpd: false });
    await client.loadBalancerRule.update({ uuid: out.lbId, name: "renamed-out-of-band" });
    await sleep(400); // the 202 updates become visible

    const refreshed = await stack.refresh();
    expect(operationsOf(refreshed.operations, ["cgw", "lb"])).toEqual(expected("update", ["cgw", "lb"]));

    const restored = await stack.up();
    expect(operationsOf(restored.operations, ["cgw", "lb"])).toEqual(expected("update", ["cgw", "lb"]));
    expect(await gateway(out.cgwId)).toMatchObject({ gateway: "198.51.100.8", dpd: true });
    expect(await lbRule(out.lbId)).toMatchObject({ name: "e2e-web-renamed" });
    await stack.preview({ expectNoChanges: true });
  });

  test("an out-of-band delete is dropped by refresh and recreated by up", async () => {
    const out = (await stack.outputs()) as Record<string, string>;
    const gone = ["sgSsh", "nat", "forward", "ilb", "vpn"];
    await client.securityGroup.deleteRule({
      securityGroupUuid: out.groupId,
      ruleType: "FIREWALLRULE",
      ruleUuid: out.sgSshId,
    });
    await client.ipAddress.disableStaticNat({ ipAddressUuid: out.natId });
    await client.portForwardingRule.delete({ uuid: out.forwardId });
    await client.internalLb.delete({ uuid: out.ilbId });
    await client.vpnConnection.delete({ uuid: out.vpnId });

    const refreshed = await stack.refresh();
    expect(operationsOf(refreshed.operations, gone)).toEqual(expected("delete", gone));

    const recreated = await stack.up();
    expect(operationsOf(recreated.operations, gone)).toEqual(expected("create", gone));
    const now = recreated.outputs as Record<string, string>;
    expect(now.sgSshId).not.toBe(out.sgSshId);
    expect(now.forwardId).not.toBe(out.forwardId);
    expect(now.vpnId).not.toBe(out.vpnId);
    expect(await publicIpsOf(now.instanceId)).toEqual([out.natIp2Address]);
    expect(await internalLb(now.ilbId)).toMatchObject({ status: "Active" });
  });

  test("the state holds neither credential nor pre-shared key in plain text", () => {
    const state = stack.stateFileText();
    expect(state.length).toBeGreaterThan(1000);
    expect(state).toContain("VpnCustomerGateway");
    for (const secret of [DEMO_KEYS.apiKey, DEMO_KEYS.secretKey, PSK, PSK2]) expect(state).not.toContain(secret);
  });

  test("destroy leaves the account with none of the program's records", async () => {
    const destroyed = await stack.destroy();
    expect(operationsOf(destroyed.operations, ALL)).toEqual(expected("delete", ALL));
    const left = Object.entries(await accountCollections())
      .map(([collection, records]) => [collection, Object.keys(records).length] as const)
      .filter(([, count]) => count > 0);
    expect(left).toEqual([]);
  });
});
