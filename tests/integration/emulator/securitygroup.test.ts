/** Security groups and their embedded rules, over HTTP: lifecycle, rule validation and conflicts, deletes. */
import { CATALOG_IDS } from "../../../emulator/seeded-catalog";
import {
  ADMIN,
  createNetwork,
  errorOf,
  networkInput,
  readInstance,
  runningInstance,
  UNKNOWN,
  until,
  useEmulator,
  type AccountHeaders,
  type Json,
} from "./helpers";

const KEY = "listSecurityGroupResponse";

const emulator = useEmulator();

/** A call to an operation of the security group area. */
const api = (method: string, operation: string, input?: Json, headers?: AccountHeaders) =>
  emulator.call(method, `/restapi/securitygroup/${operation}`, input, headers);

/** The group of a successful envelope answer. */
async function group(method: string, path: string, input: Json): Promise<Json> {
  const reply = await api(method, path, input);
  expect([reply.status, reply.body?.count]).toEqual([200, 1]);
  return reply.body[KEY][0];
}

let serial = 0;
const newGroup = () => group("POST", "createSecurityGroup", { name: `sg-${++serial}`, description: "test group" });

describe("security groups", () => {
  it("creates a group with empty rule arrays, lists it, keeps names unique (409)", async () => {
    const created = await group("POST", "createSecurityGroup", { name: "web", description: "web tier" });
    expect(created).toEqual({
      securityGroupFirewallRule: [],
      securityGroupPortForwarding: [],
      securityGroupEgressRule: [],
      name: "web",
      description: "web tier",
      isActive: true,
      uuid: expect.any(String),
      status: "Active",
    });
    expect((await api("GET", "securityList", { uuid: created.uuid })).body).toEqual({ count: 1, [KEY]: [created] });
    expect((await api("GET", "securityList")).body[KEY]).toContainEqual(created);
    expect((await api("GET", "securityList", {}, ADMIN)).body).toEqual({ count: 0, [KEY]: [] });
    const duplicate = await api("POST", "createSecurityGroup", { name: "web" });
    expect(duplicate.status).toBe(409);
    expect((await api("POST", "createSecurityGroup", { description: "no name" })).status).toBe(400);
  });

  it("embeds firewall, egress and port-forwarding rules, each with its own uuid and the rule record's fields", async () => {
    const sg = await newGroup();
    const withFirewall = await group("POST", "createSecurityGroupFirewallRule", {
      securityGroupUuid: sg.uuid,
      protocol: "TCP",
      startPort: "22",
      endPort: "22",
      cidrList: "10.0.0.0/8",
    });
    expect(withFirewall.securityGroupFirewallRule).toEqual([
      {
        startPort: "22",
        ipAddressUuid: "",
        icmpType: "",
        protocol: "TCP",
        cidrList: "10.0.0.0/8",
        icmpCode: "",
        zoneUuid: "",
        isActive: true,
        uuid: expect.any(String),
        endPort: "22",
        status: "Active",
      },
    ]);
    const withEgress = await group("POST", "createSecurityGroupEgressRule", {
      securityGroupUuid: sg.uuid,
      protocol: "ICMP",
    });
    expect(withEgress.securityGroupEgressRule).toEqual([
      expect.objectContaining({
        protocol: "ICMP",
        icmpType: "-1",
        icmpCode: "-1",
        networkUuid: "",
        uuid: expect.any(String),
      }),
    ]);
    const withForwarding = await group("POST", "createSecurityGroupPortForwardingRule", {
      securityGroupUuid: sg.uuid,
      protocolType: "UDP",
      privateStartPort: "5000",
      privateEndPort: "5001",
      publicStartPort: "15000",
      publicEndPort: "15001",
    });
    expect(withForwarding.securityGroupPortForwarding).toEqual([
      {
        ipAddressUuid: "",
        protocol: "UDP",
        virtualMachineName: "",
        privatePort: "5000",
        privateEndPort: "5001",
        publicPort: "15000",
        publicEndPort: "15001",
        zoneUuid: "",
        isActive: true,
        uuid: expect.any(String),
        status: "Active",
      },
    ]);
    expect(withForwarding.securityGroupFirewallRule).toHaveLength(1);
    expect(withForwarding.securityGroupEgressRule).toHaveLength(1);
  });

  it("refuses overlapping rules of a group (409)", async () => {
    const sg = await newGroup();
    const tcp = {
      securityGroupUuid: sg.uuid,
      protocol: "TCP",
      startPort: "8000",
      endPort: "8100",
      cidrList: "0.0.0.0/0",
    };
    await group("POST", "createSecurityGroupFirewallRule", tcp);
    expect((await api("POST", "createSecurityGroupFirewallRule", { ...tcp, startPort: "8050" })).status).toBe(409);
    await group("POST", "createSecurityGroupEgressRule", {
      securityGroupUuid: sg.uuid,
      protocol: "UDP",
      startPort: "53",
    });
    const egress = { securityGroupUuid: sg.uuid, protocol: "UDP", startPort: "53" };
    expect((await api("POST", "createSecurityGroupEgressRule", egress)).status).toBe(409);
    const forward = { securityGroupUuid: sg.uuid, protocolType: "TCP", privateStartPort: "80", publicStartPort: "80" };
    await group("POST", "createSecurityGroupPortForwardingRule", forward);
    expect((await api("POST", "createSecurityGroupPortForwardingRule", forward)).status).toBe(409);
  });

  it.each([
    [
      "FIREWALLRULE",
      "createSecurityGroupFirewallRule",
      { protocol: "TCP", startPort: "443" },
      "securityGroupFirewallRule",
    ],
    ["EGRESSRULE", "createSecurityGroupEgressRule", { protocol: "TCP", startPort: "443" }, "securityGroupEgressRule"],
    [
      "PORTFORWATDING",
      "createSecurityGroupPortForwardingRule",
      { protocolType: "TCP", privateStartPort: "443", publicStartPort: "443" },
      "securityGroupPortForwarding",
    ],
  ])("deletes a rule of type %s by its uuid", async (ruleType, create, input, array) => {
    const sg = await newGroup();
    const ruleUuid = (await group("POST", create, { securityGroupUuid: sg.uuid, ...input }))[array][0].uuid;
    const wrongType = ruleType === "EGRESSRULE" ? "FIREWALLRULE" : "EGRESSRULE";
    const misnamed = await api("DELETE", "deleteSecurityGroupRule", {
      securityGroupUuid: sg.uuid,
      ruleType: wrongType,
      ruleUuid,
    });
    expect(misnamed.status).toBe(404);
    const deleted = await group("DELETE", "deleteSecurityGroupRule", {
      securityGroupUuid: sg.uuid,
      ruleType,
      ruleUuid,
    });
    expect(deleted[array]).toEqual([]);
    expect(
      (await api("DELETE", "deleteSecurityGroupRule", { securityGroupUuid: sg.uuid, ruleType, ruleUuid })).status,
    ).toBe(404);
  });

  it("cannot delete a group a network uses (409); deletes an unused one once", async () => {
    const sg = await newGroup();
    const network = await emulator.call(
      "POST",
      `/restapi/network/createNetwork?securityGroupUuid=${sg.uuid}`,
      networkInput({ name: "guarded", networkOfferingUuid: CATALOG_IDS.networkOfferings.shared }),
    );
    expect(network.status).toBe(200);
    const inUse = await api("DELETE", `deleteSecurityGroup/${sg.uuid}`);
    expect(inUse.status).toBe(409);
    const unused = await newGroup();
    expect((await api("DELETE", `deleteSecurityGroup/${unused.uuid}`, {}, ADMIN)).status).toBe(404);
    expect(await api("DELETE", `deleteSecurityGroup/${unused.uuid}`)).toEqual({ status: 200, body: true });
    expect((await api("DELETE", `deleteSecurityGroup/${unused.uuid}`)).status).toBe(404);
  });

  it("cannot delete a group an instance uses (409), destroyed or not, until the instance is expunged", async () => {
    const sg = await newGroup();
    const network = await createNetwork(emulator, { name: "sg-users" });
    const vm = await runningInstance(emulator, {
      name: "guarded-vm",
      networkUuid: network.uuid,
      securitygroupName: sg.name,
    });
    const path = `deleteSecurityGroup/${String(sg.uuid)}`;
    const inUse = `security group ${String(sg.uuid)} is in use by 1 instance(s) (${String(vm.uuid)}); delete those first`;

    const refused = await api("DELETE", path);
    expect([refused.status, errorOf(refused)]).toEqual([409, { errorCode: "CONFLICT", errorMsg: inUse }]);
    expect((await api("GET", "securityList", { uuid: sg.uuid })).body.count).toBe(1);

    // Destroyed but recoverable: CloudStack still counts the instance as the group's.
    const destroy = (expunge: boolean) =>
      emulator.call("GET", "/restapi/instance/destroyInstance", { uuid: vm.uuid, expunge });
    expect((await destroy(false)).status).toBe(200);
    const stillRefused = await api("DELETE", path);
    expect([stillRefused.status, errorOf(stillRefused).errorMsg]).toEqual([409, inUse]);

    expect((await destroy(true)).status).toBe(200);
    await until(
      () => readInstance(emulator, String(vm.uuid)),
      (instance) => instance === undefined,
    );
    expect(await api("DELETE", path)).toEqual({ status: 200, body: true });
  });

  it.each([
    ["POST", "createSecurityGroupFirewallRule", { protocol: "TCP" }, 400, /^securityGroupUuid: is required/],
    ["POST", "createSecurityGroupFirewallRule", { sg: true, protocol: "TCP", startPort: "0" }, 400, /^startPort: /],
    ["POST", "createSecurityGroupFirewallRule", { sg: true, protocol: "TCP", cidrList: "1.2.3.4" }, 400, /^cidrList: /],
    ["POST", "createSecurityGroupFirewallRule", { sg: true, protocol: "TCP", icmpCode: "0" }, 400, /^icmpCode: /],
    ["POST", "createSecurityGroupEgressRule", { sg: true }, 400, /^protocol: is required/],
    ["POST", "createSecurityGroupEgressRule", { sg: true, protocol: "ALL" }, 400, /^protocol: /],
    [
      "POST",
      "createSecurityGroupPortForwardingRule",
      { sg: true, protocolType: "ICMP", privateStartPort: "1", publicStartPort: "1" },
      400,
      /^protocolType: /,
    ],
    [
      "POST",
      "createSecurityGroupPortForwardingRule",
      { sg: true, protocolType: "TCP", privateStartPort: "1", publicStartPort: "1", publicEndPort: "5" },
      400,
      /^privateEndPort: /,
    ],
    ["POST", "createSecurityGroupFirewallRule", { protocol: "TCP", securityGroupUuid: UNKNOWN }, 404, /security group/],
    ["DELETE", "deleteSecurityGroupRule", { sg: true, ruleType: "FIREWALL", ruleUuid: UNKNOWN }, 400, /^ruleType: /],
    ["DELETE", "deleteSecurityGroupRule", { sg: true, ruleType: "FIREWALLRULE" }, 400, /^ruleUuid: is required/],
    ["DELETE", "deleteSecurityGroupRule", { sg: true, ruleType: "FIREWALLRULE", ruleUuid: UNKNOWN }, 404, /rule/],
  ])("%s %s %j answers %i and changes nothing", async (method, path, input, status, message) => {
    const sg = await newGroup();
    const { sg: withGroup, ...rest } = input as Json;
    const body = withGroup ? { securityGroupUuid: sg.uuid, ...rest } : rest;
    await emulator.expectRefused(() => api(method, path, body), status, message);
  });
});
