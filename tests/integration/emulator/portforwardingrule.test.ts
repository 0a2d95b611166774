/** Port-forwarding rules, over HTTP: lifecycle, filters, validation, port conflicts, and what they block. */
import {
  acquireIp,
  ADMIN,
  createNetwork,
  createVpcWithTier,
  errorOf,
  runningInstance,
  UNKNOWN,
  useEmulator,
  withoutBlanks,
  ZONE,
  type AccountHeaders,
  type Json,
} from "./helpers";

const KEY = "listPortForwardingResponse";

const emulator = useEmulator();
const { call, expectRefused } = emulator;
let network: Json;
let ip: Json;
let vm: Json;

/** An instance on the network, once Running (so that no asynchronous change is pending). */
const newInstance = (name: string, networkUuid: string) => runningInstance(emulator, { name, networkUuid });
const forward = (input: Json) => ({
  ipAddressUuid: ip.uuid,
  protocol: "TCP",
  privatePort: "22",
  publicPort: "2222",
  virtualmachineUuid: vm.uuid,
  networkUuid: network.uuid,
  ...input,
});
const create = (input: Json) => call("POST", "/restapi/portforwardingrule/createPortForwardingRule", forward(input));
const list = (query: Json, headers?: AccountHeaders) =>
  call("GET", "/restapi/portforwardingrule/portForwardingRuleList", query, headers);

beforeAll(async () => {
  network = await createNetwork(emulator, { name: "web" });
  ip = await acquireIp(emulator, network.uuid);
  vm = await newInstance("web1", network.uuid);
});

describe("port-forwarding rules", () => {
  it("creates a rule of port ranges, naming the instance, and lists it by VM, IP and uuid", async () => {
    const reply = await create({
      privatePort: "8000",
      privateEndPort: "8009",
      publicPort: "9000",
      publicEndPort: "9009",
    });
    expect(reply.status).toBe(200);
    const record = reply.body[KEY][0];
    expect(record).toEqual({
      ipAddressUuid: ip.uuid,
      protocol: "TCP",
      virtualMachineName: vm.displayName || vm.name,
      privatePort: "8000",
      privateEndPort: "8009",
      publicPort: "9000",
      publicEndPort: "9009",
      zoneUuid: ZONE,
      isActive: true,
      uuid: expect.any(String),
      status: "Active",
    });
    for (const filter of [{ vmUuid: vm.uuid }, { ipAddressUuid: ip.uuid }, { uuid: record.uuid }]) {
      const listed = await list({ zoneUuid: ZONE, ...filter });
      expect(listed.body[KEY]).toContainEqual(record);
    }
    const otherVm = await list({ zoneUuid: ZONE, vmUuid: UNKNOWN });
    expect(otherVm.body).toEqual({ count: 0, [KEY]: [] });
    expect((await list({ zoneUuid: ZONE }, ADMIN)).body.count).toBe(0);
  });

  it("refuses public ports overlapping a rule of the same protocol (409); another protocol may share them", async () => {
    expect(
      (await create({ publicPort: "2200", publicEndPort: "2300", privatePort: "2200", privateEndPort: "2300" })).status,
    ).toBe(200);
    const clash = await create({ publicPort: "2250" });
    expect(clash.status).toBe(409);
    expect(clash.body.listErrorResponse.errorMsg).toContain("overlap");
    expect((await create({ protocol: "UDP", publicPort: "2250" })).status).toBe(200);
  });

  it("refuses a public TCP port that a load-balancer rule of the IP uses (409)", async () => {
    const lb = await call("POST", "/restapi/loadbalancerrule/createLoadBalancerRule", {
      name: "web-lb",
      publicIpUuid: ip.uuid,
      networkUuid: network.uuid,
      publicport: "80",
      privateport: "8080",
      algorithm: "roundrobin",
    });
    expect(lb.status).toBe(200);
    expect((await create({ publicPort: "80", privatePort: "80" })).status).toBe(409);
  });

  it("refuses rules on an address with static NAT (409)", async () => {
    const natIp = await acquireIp(emulator, network.uuid);
    const natVm = await newInstance("nat1", network.uuid);
    expect(
      (await call("POST", "/restapi/ipaddress/enableStaticNat", { ipAddressUuid: natIp.uuid, vmUuid: natVm.uuid }))
        .status,
    ).toBe(200);
    expect((await create({ ipAddressUuid: natIp.uuid, virtualmachineUuid: natVm.uuid })).status).toBe(409);
  });

  it("keeps the IP from being released while it has rules; deletes a rule once", async () => {
    const freshIp = await acquireIp(emulator, network.uuid);
    const record = (await create({ ipAddressUuid: freshIp.uuid })).body[KEY][0];
    expect((await call("DELETE", "/restapi/ipaddress/releaseIpAddress", { uuid: freshIp.uuid })).status).toBe(409);
    const path = `/restapi/portforwardingrule/deletePortForwardingRule/${record.uuid}`;
    expect(await call("DELETE", path)).toEqual({ status: 200, body: true });
    expect((await call("DELETE", path)).status).toBe(404);
    expect((await call("DELETE", "/restapi/ipaddress/releaseIpAddress", { uuid: freshIp.uuid })).status).toBe(200);
  });

  it("refuses an instance that is not on the network, and a network that cannot reach the IP (400)", async () => {
    const other = await createNetwork(emulator, { name: "other" });
    const stranger = await newInstance("stranger", other.uuid);
    const notOnNetwork = await create({ virtualmachineUuid: stranger.uuid, publicPort: "3000", privatePort: "3000" });
    expect(notOnNetwork.status).toBe(400);
    expect(notOnNetwork.body.listErrorResponse.errorMsg).toMatch(/^virtualmachineUuid: /);
    const unreachable = await create({
      networkUuid: other.uuid,
      virtualmachineUuid: stranger.uuid,
      publicPort: "3001",
      privatePort: "3001",
    });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.listErrorResponse.errorMsg).toMatch(/^networkUuid: /);
  });

  it("without networkUuid, forwards on the address's network (the spec does not require the field)", async () => {
    const reply = await create({ networkUuid: undefined, publicPort: "4000", privatePort: "4000" });
    expect(reply.status).toBe(200);
    const record = reply.body[KEY][0];
    expect(record).toMatchObject({ ipAddressUuid: ip.uuid, publicPort: "4000", privatePort: "4000" });
    expect((await list({ zoneUuid: ZONE, vmUuid: vm.uuid })).body[KEY]).toContainEqual(record);
    // The network it was put on holds it: the network cannot go while the rule stands.
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${String(network.uuid)}`)).status).toBe(409);

    const elsewhere = await createNetwork(emulator, { name: "elsewhere" });
    const outsider = await newInstance("outsider", elsewhere.uuid);
    const refused = await create({ networkUuid: undefined, virtualmachineUuid: outsider.uuid, publicPort: "4001" });
    expect([refused.status, errorOf(refused).errorMsg]).toEqual([
      400,
      `virtualmachineUuid: instance ${String(outsider.uuid)} is not on network ${String(network.uuid)}`,
    ]);
  });

  it("without networkUuid, forwards a VPC's address to the instance's tier", async () => {
    const { vpc, tier } = await createVpcWithTier(emulator);
    const vpcIp = await acquireIp(emulator, vpc.uuid, "VPC");
    const tierVm = await newInstance("tier-vm", String(tier.uuid));
    const reply = await create({
      networkUuid: undefined,
      ipAddressUuid: vpcIp.uuid,
      virtualmachineUuid: tierVm.uuid,
      publicPort: "22",
    });
    expect(reply.status).toBe(200);
    expect(reply.body[KEY][0]).toMatchObject({ ipAddressUuid: vpcIp.uuid, virtualMachineName: tierVm.displayName });
    expect((await call("DELETE", `/restapi/network/deleteNetwork/${String(tier.uuid)}`)).status).toBe(409);
  });

  it.each([
    ["no ipAddressUuid", { ipAddressUuid: undefined }, 400, /^ipAddressUuid: is required/],
    ["protocol ICMP", { protocol: "ICMP" }, 400, /^protocol: must be one of TCP, UDP/],
    ["no privatePort", { privatePort: undefined }, 400, /^privatePort: is required/],
    ["no publicPort", { publicPort: undefined }, 400, /^publicPort: is required/],
    ["no virtualmachineUuid", { virtualmachineUuid: undefined }, 400, /^virtualmachineUuid: is required/],
    ["port 0", { publicPort: "0" }, 400, /^publicPort: /],
    ["a reversed range", { publicPort: "5000", publicEndPort: "4000" }, 400, /^publicEndPort: /],
    [
      "ranges of different lengths",
      { publicPort: "5000", publicEndPort: "5009", privatePort: "22" },
      400,
      /^privateEndPort: /,
    ],
    ["an unknown IP", { ipAddressUuid: UNKNOWN }, 404, /IP address/],
    ["an unknown instance", { virtualmachineUuid: UNKNOWN }, 404, /instance/],
    ["an unknown network", { networkUuid: UNKNOWN }, 404, /network/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    const body = withoutBlanks(forward({ publicPort: "5555", ...input }));
    await expectRefused(
      () => call("POST", "/restapi/portforwardingrule/createPortForwardingRule", body),
      status,
      message,
    );
  });

  it("requires a known zone to list", async () => {
    expect((await call("GET", "/restapi/portforwardingrule/portForwardingRuleList")).status).toBe(400);
    expect((await list({ zoneUuid: UNKNOWN })).status).toBe(404);
  });
});
