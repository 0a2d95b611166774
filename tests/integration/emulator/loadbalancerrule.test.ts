/** Public load-balancer rules, over HTTP: lifecycle (Add, then Active), asynchronous update, validation, conflicts. */
import {
  acquireIp,
  ADMIN,
  asyncDelays,
  createNetwork,
  createVpcWithTier,
  UNKNOWN,
  useEmulator,
  withoutBlanks,
  ZONE,
  type Json,
} from "./helpers";

const KEY = "listLoadBalancerRuleResponse";

const emulator = useEmulator();
const { call, expectRefused } = emulator;
let network: Json;
let ip: Json;
/** Fresh public ports for rules that must not clash. */
let nextPort = 7100;

const ruleInput = (input: Json = {}) => ({
  name: "web",
  publicIpUuid: ip.uuid,
  networkUuid: network.uuid,
  publicport: "80",
  privateport: "8080",
  algorithm: "roundrobin",
  ...input,
});
const create = (input: Json) => call("POST", "/restapi/loadbalancerrule/createLoadBalancerRule", ruleInput(input));
const listed = async (uuid: string): Promise<Json> =>
  (await call("GET", "/restapi/loadbalancerrule/loadBalancerRuleList", { zoneUuid: ZONE, uuid })).body[KEY][0];

beforeAll(async () => {
  network = await createNetwork(emulator, { name: "web" });
  ip = await acquireIp(emulator, network.uuid);
});

describe("load-balancer rules", () => {
  it("creates a rule in state Add that becomes Active after the delay", async () => {
    const reply = await create({
      publicport: "443",
      privateport: "8443",
      algorithm: "leastconn",
      svcLbSticky: { stickinessMethod: "LbCookie", stickinessName: "web-sticky", cookieName: "SRV" },
    });
    expect(reply.status).toBe(200);
    const record = reply.body[KEY][0];
    expect(record).toEqual({
      ipAddressUuid: ip.uuid,
      stickinessName: "web-sticky",
      privatePort: "8443",
      name: "web",
      publicPort: "443",
      zoneUuid: ZONE,
      state: "Add",
      isActive: true,
      uuid: expect.any(String),
      algorithm: "leastconn",
      status: "Active",
    });
    await asyncDelays(4);
    expect(await listed(record.uuid)).toEqual({ ...record, state: "Active" });
  });

  it("accepts an update (202) that becomes visible after the delay", async () => {
    const record = (await create({ name: "api", publicport: "8081" })).body[KEY][0];
    const reply = await call("PUT", "/restapi/loadbalancerrule/updateLoadBalancerRule", {
      uuid: record.uuid,
      name: "api-v2",
      algorithm: "source",
    });
    expect(reply.status).toBe(202);
    expect(reply.body[KEY][0]).toMatchObject({ name: "api", algorithm: "roundrobin" });
    await asyncDelays(4);
    expect(await listed(record.uuid)).toMatchObject({ name: "api-v2", algorithm: "source", state: "Active" });
  });

  it("refuses a second rule on a public port of the IP (409)", async () => {
    expect((await create({ name: "a", publicport: "8082" })).status).toBe(200);
    const clash = await create({ name: "b", publicport: "8082", privateport: "9000" });
    expect(clash.status).toBe(409);
  });

  it("filters the list by IP address and shows another account nothing", async () => {
    const other = await acquireIp(emulator, network.uuid);
    const record = (await create({ publicIpUuid: other.uuid })).body[KEY][0];
    const byIp = await call("GET", "/restapi/loadbalancerrule/loadBalancerRuleList", {
      zoneUuid: ZONE,
      ipAddressUuid: other.uuid,
    });
    expect(byIp.body).toEqual({ count: 1, [KEY]: [expect.objectContaining({ uuid: record.uuid })] });
    const foreign = await call("GET", "/restapi/loadbalancerrule/loadBalancerRuleList", { zoneUuid: ZONE }, ADMIN);
    expect(foreign.body.count).toBe(0);
  });

  it("keeps the IP from being released while it has rules; deletes a rule once", async () => {
    const fresh = await acquireIp(emulator, network.uuid);
    const record = (await create({ publicIpUuid: fresh.uuid })).body[KEY][0];
    expect((await call("DELETE", "/restapi/ipaddress/releaseIpAddress", { uuid: fresh.uuid })).status).toBe(409);
    const path = `/restapi/loadbalancerrule/deleteLoadBalancerRule/${record.uuid}`;
    expect(await call("DELETE", path)).toEqual({ status: 200, body: true });
    expect((await call("DELETE", path)).status).toBe(404);
    expect((await call("DELETE", "/restapi/ipaddress/releaseIpAddress", { uuid: fresh.uuid })).status).toBe(200);
  });

  it("refuses a network that cannot reach the IP (400)", async () => {
    const other = await createNetwork(emulator, { name: "other" });
    const reply = await create({ networkUuid: other.uuid, publicport: "8090" });
    expect(reply.status).toBe(400);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(/^networkUuid: /);
  });

  it("without networkUuid, balances on the address's network (the spec does not require the field)", async () => {
    const fresh = await acquireIp(emulator, network.uuid);
    const reply = await create({ networkUuid: undefined, publicIpUuid: fresh.uuid, publicport: "8081" });
    expect(reply.status).toBe(200);
    const record = reply.body[KEY][0];
    expect(record).toMatchObject({ ipAddressUuid: fresh.uuid, publicPort: "8081", state: "Add" });
    expect(await listed(String(record.uuid))).toMatchObject({ uuid: record.uuid, ipAddressUuid: fresh.uuid });
  });

  it("without networkUuid, refuses a VPC's address (400): the rule names no instance to find the tier by", async () => {
    const { vpc } = await createVpcWithTier(emulator);
    const vpcIp = await acquireIp(emulator, vpc.uuid, "VPC");
    await asyncDelays(3); // pending state changes of earlier rules are done
    await expectRefused(
      () =>
        call(
          "POST",
          "/restapi/loadbalancerrule/createLoadBalancerRule",
          withoutBlanks(ruleInput({ networkUuid: undefined, publicIpUuid: vpcIp.uuid, publicport: "8082" })),
        ),
      400,
      `networkUuid: is required for IP address ${String(vpcIp.uuid)} of VPC ${String(vpc.uuid)} (which tier?)`,
    );
  });

  it.each([
    ["no name", { name: undefined }, 400, /^name: is required/],
    ["no publicIpUuid", { publicIpUuid: undefined }, 400, /^publicIpUuid: is required/],
    ["no publicport", { publicport: undefined }, 400, /^publicport: is required/],
    ["no privateport", { privateport: undefined }, 400, /^privateport: is required/],
    ["no algorithm", { algorithm: undefined }, 400, /^algorithm: is required/],
    ["algorithm random", { algorithm: "random" }, 400, /^algorithm: must be one of source, roundrobin, leastconn/],
    ["port 99999", { publicport: "99999" }, 400, /^publicport: /],
    ["a sticky string", { svcLbSticky: "LbCookie" }, 400, /^svcLbSticky: /],
    ["a sticky method Magic", { svcLbSticky: { stickinessMethod: "Magic" } }, 400, /^svcLbSticky.stickinessMethod: /],
    ["an unknown IP", { publicIpUuid: UNKNOWN }, 404, /IP address/],
    ["an unknown network", { networkUuid: UNKNOWN }, 404, /network/],
  ])("refuses %s with %i and changes nothing", async (_label, input, status, message) => {
    await asyncDelays(3); // pending state changes of earlier rules are done
    const body = withoutBlanks(ruleInput({ publicport: "7000", ...input }));
    await expectRefused(() => call("POST", "/restapi/loadbalancerrule/createLoadBalancerRule", body), status, message);
  });

  it.each([
    ["no uuid", { name: "x" }, 400, /^uuid: is required/],
    ["nothing to change", { uuid: "KNOWN" }, 400, /name or algorithm/],
    ["algorithm random", { uuid: "KNOWN", algorithm: "random" }, 400, /^algorithm: /],
    ["an unknown rule", { uuid: UNKNOWN, name: "x" }, 404, /load-balancer rule/],
  ])("refuses an update with %s (%i)", async (_label, input, status, message) => {
    const known = (await create({ name: "upd", publicport: String(nextPort++) })).body[KEY][0];
    const body = { ...input, ...((input as Json).uuid === "KNOWN" ? { uuid: known.uuid } : {}) };
    const reply = await call("PUT", "/restapi/loadbalancerrule/updateLoadBalancerRule", body);
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
  });
});
