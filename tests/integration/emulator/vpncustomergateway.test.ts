/** VPN customer gateways, over HTTP: add, list, asynchronous update, delete, and the validation of every field. */
import {
  addGateway,
  ADMIN,
  asyncDelays,
  gatewayInput,
  UNKNOWN,
  useEmulator,
  type AccountHeaders,
  type Json,
} from "./helpers";

const KEY = "listVpnCustomerGatewayResponse";

const emulator = useEmulator();
const { resources } = emulator;

/** A call to an operation of the VPN customer gateway area. */
const api = (method: string, operation: string, input?: Json, headers?: AccountHeaders) =>
  emulator.call(method, `/restapi/vpncustomergateway/${operation}`, input, headers);

const add = (input: Json = {}) => addGateway(emulator, input);
const listed = async (uuid: string): Promise<Json> =>
  (await api("GET", "vpnCustomerGatewayList", { uuid })).body[KEY][0];

describe("VPN customer gateways", () => {
  it("adds a gateway: every spec field, the pre-shared key as ipsecPresharedKey, defaults for the optional ones", async () => {
    const record = await add({ name: "hq", cidrlist: "192.168.10.0/24, 192.168.20.0/24" });
    expect(record).toEqual({
      esplifetime: "3600",
      cidrList: "192.168.10.0/24,192.168.20.0/24",
      forceencap: false,
      ikepolicy: "Group 14(modp2048)",
      ipsecPresharedKey: "s3cret-pre-shared-key",
      ikeVersion: "ike",
      splitConnection: false,
      isActive: true,
      ikelifetime: "86400",
      uuid: expect.any(String),
      domainName: "demo",
      name: "hq",
      dpd: false,
      esppolicy: "None",
      gateway: "198.51.100.7",
      status: "Active",
    });
    expect((await api("GET", "vpnCustomerGatewayList", { uuid: record.uuid })).body).toEqual({
      count: 1,
      [KEY]: [record],
    });
    expect((await api("GET", "vpnCustomerGatewayList", {}, ADMIN)).body).toEqual({ count: 0, [KEY]: [] });
  });

  it("takes the optional flags, IKE version and the spec's sample group label", async () => {
    const options = {
      ikepolicy: "Group 5(modpb1536)",
      esppolicy: "Group 2(modp1024)",
      ikeVersion: "ikev2",
      forceencap: true,
      splitConnection: true,
      dpd: true,
    };
    expect(await add(options)).toMatchObject(options);
  });

  it("keeps names unique in the account (409)", async () => {
    await add({ name: "twin" });
    expect((await api("POST", "addVpnCustomerGateway", gatewayInput({ name: "twin" }))).status).toBe(409);
  });

  it("accepts an update (202) that becomes visible after the delay", async () => {
    const record = await add();
    const reply = await api("PUT", "updateVpnCustomerGateway", {
      uuid: record.uuid,
      gateway: "198.51.100.99",
      ipsecpsk: "rotated-key",
      dpd: true,
    });
    expect(reply.status).toBe(202);
    expect(reply.body[KEY][0]).toEqual(record);
    await asyncDelays(4);
    expect(await listed(record.uuid)).toEqual({
      ...record,
      gateway: "198.51.100.99",
      ipsecPresharedKey: "rotated-key",
      dpd: true,
    });
  });

  it.each([
    ["no uuid", { name: "x" }, 400, /^uuid: is required/],
    ["a bad gateway", { uuid: "KNOWN", gateway: "gateway.example" }, 400, /^gateway: /],
    ["a bad hash", { uuid: "KNOWN", espHash: "crc32" }, 400, /^espHash: /],
    ["an unknown gateway", { uuid: UNKNOWN, name: "x" }, 404, /VPN customer gateway/],
  ])("refuses an update with %s (%i) and changes nothing", async (_label, input, status, message) => {
    const known = await add();
    await asyncDelays(2);
    const before = await resources();
    const reply = await api("PUT", "updateVpnCustomerGateway", {
      ...input,
      ...((input as Json).uuid === "KNOWN" ? { uuid: known.uuid } : {}),
    });
    expect(reply.status).toBe(status);
    expect(reply.body.listErrorResponse.errorMsg).toMatch(message);
    await asyncDelays(2);
    expect(await resources()).toEqual(before);
  });

  it("deletes a gateway once", async () => {
    const record = await add();
    expect((await api("DELETE", `deleteVpnCustomerGateway/${record.uuid}`, {}, ADMIN)).status).toBe(404);
    expect(await api("DELETE", `deleteVpnCustomerGateway/${record.uuid}`)).toEqual({ status: 200, body: true });
    expect((await api("DELETE", `deleteVpnCustomerGateway/${record.uuid}`)).status).toBe(404);
    expect((await api("GET", "vpnCustomerGatewayList", { uuid: record.uuid })).body.count).toBe(0);
  });

  const required = Object.keys(gatewayInput());
  it.each(required)("requires %s to add (400) and changes nothing", async (field) => {
    const { [field]: _left, ...body } = gatewayInput();
    await emulator.expectRefused(() => api("POST", "addVpnCustomerGateway", body), 400, `${field}: is required`);
  });

  it.each([
    ["gateway", "300.1.1.1"],
    ["gateway", "2001:db8::1"],
    ["cidrlist", "192.168.10.0"],
    ["cidrlist", "192.168.10.0/24,banana"],
    ["ikeEncryption", "aes512"],
    ["espEncryption", "blowfish"],
    ["ikeHash", "sha3"],
    ["espHash", "SHA1"],
    ["ikepolicy", "Group 3(modp1536)"],
    ["ikepolicy", "modp1536"],
    ["esppolicy", "Group 5"],
    ["ikelifetime", "0"],
    ["ikelifetime", "1h"],
    ["esplifetime", "-5"],
    ["esplifetime", "90000"],
    ["ikeVersion", "ike3"],
    ["dpd", "maybe"],
  ])("names %s when it is %j (400) and changes nothing", async (field, value) => {
    const body = gatewayInput({ [field]: value });
    await emulator.expectRefused(() => api("POST", "addVpnCustomerGateway", body), 400, new RegExp(`^${field}: `));
  });
});
