/**
 * More accounts: `accounts: [{name, apiKey, secretKey}]` (`--account NAME:APIKEY:SECRETKEY`) besides
 * demo and admin; `GET /_emulator/accounts` lists them without their keys; bad specs fail at start.
 */
import { once } from "node:events";
import { spawnEmulatorCli } from "./helpers";
import { parseCli } from "../../../emulator/cli";
import { startEmulator } from "../../../emulator/index";
import {
  createVpc,
  DEMO,
  emulatorsOnDemand,
  request,
  useEmulator,
  ZONE,
  type AccountHeaders,
  type Json,
} from "./helpers";

const CI: AccountHeaders = { apikey: "ci-key-5a1f", secretkey: "ci-secret-77d0" };
const emulator = useEmulator({
  accounts: [
    { name: "ci", apiKey: CI.apikey, secretKey: CI.secretkey },
    { name: "team-b", apiKey: "b-key", secretKey: "b-secret" },
  ],
});
const { call } = emulator;

const vpcNames = async (headers: AccountHeaders) =>
  ((await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`, undefined, headers)).body.listVpcResponse as Json[])
    .map((v) => v.name)
    .sort();

describe("further accounts", () => {
  it("are listed with their roles, never their keys", async () => {
    const reply = await call("GET", "/_emulator/accounts");
    expect(reply).toEqual({
      status: 200,
      body: {
        accounts: [
          { name: "demo", role: "user" },
          { name: "admin", role: "admin" },
          { name: "ci", role: "user" },
          { name: "team-b", role: "user" },
        ],
      },
    });
    const text = JSON.stringify(reply.body);
    for (const key of ["demo-api-key", "demo-secret-key", "admin-api-key", CI.apikey, CI.secretkey, "b-key"]) {
      expect(text).not.toContain(key);
    }
  });

  it("hold records of their own, apart from demo's", async () => {
    const ciVpc = await createVpc(emulator, { name: "ci-vpc" }, CI);
    const demoVpc = await createVpc(emulator, { name: "demo-vpc" }, DEMO);
    expect(await vpcNames(CI)).toEqual(["ci-vpc"]);
    expect(await vpcNames(DEMO)).toEqual(["demo-vpc"]);
    expect(await vpcNames({ apikey: "b-key", secretkey: "b-secret" })).toEqual([]);
    // One account's uuid is unknown to the other, both ways.
    expect((await call("GET", `/restapi/vpc/vpcId?uuid=${String(demoVpc.uuid)}`, undefined, CI)).status).toBe(404);
    expect((await call("GET", `/restapi/vpc/vpcId?uuid=${String(ciVpc.uuid)}`, undefined, DEMO)).status).toBe(404);
    expect((await call("DELETE", `/restapi/vpc/deleteVpc/${String(demoVpc.uuid)}`, undefined, CI)).status).toBe(404);
    expect(Object.keys((await emulator.resources("ci")).vpc as Json)).toEqual([ciVpc.uuid]);
    expect(Object.keys((await emulator.resources("demo")).vpc as Json)).toEqual([demoVpc.uuid]);
    expect(emulator.scope("ci").account).toEqual({
      id: "ci",
      name: "ci",
      email: "ci@restcloud.example",
      isAdmin: false,
    });
    // A key of one account with the secret of another is nobody's.
    const mixed = { apikey: CI.apikey, secretkey: "demo-secret-key" };
    expect((await call("GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`, undefined, mixed)).status).toBe(401);
    // The administrator's rights stay the administrator's.
    expect((await call("GET", "/restapi/host/hostList", undefined, CI)).status).toBe(550);
  });
});

describe("account specs", () => {
  const emulators = emulatorsOnDemand();

  it("may give demo or admin other keys in the same list", async () => {
    const custom = await emulators.start({
      accounts: [
        { name: "demo", apiKey: "d1", secretKey: "d2" },
        { name: "ci", apiKey: "c1", secretKey: "c2" },
      ],
    });
    const list = (headers: AccountHeaders) =>
      request(custom, "GET", `/restapi/vpc/vpcList?zoneUuid=${ZONE}`, undefined, headers);
    expect((await list(DEMO)).status).toBe(401);
    expect((await list({ apikey: "d1", secretkey: "d2" })).status).toBe(200);
    expect((await list({ apikey: "c1", secretkey: "c2" })).status).toBe(200);
    expect((await request(custom, "GET", "/_emulator/accounts")).body.accounts).toHaveLength(3);
    await emulators.stopAll();
  });

  it.each<[string, unknown, string]>([
    ["a missing apiKey", [{ name: "ci", secretKey: "s" }], "accounts[0].apiKey: is required"],
    ["an empty secretKey", [{ name: "ci", apiKey: "k", secretKey: "" }], "accounts[0].secretKey: is required"],
    ["a missing name", [{ apiKey: "k", secretKey: "s" }], "accounts[0].name: is required"],
    [
      "a duplicate name",
      [
        { name: "ci", apiKey: "k1", secretKey: "s1" },
        { name: "ci", apiKey: "k2", secretKey: "s2" },
      ],
      "accounts[1].name: duplicate account name ci",
    ],
    [
      "demo given twice",
      [
        { name: "demo", apiKey: "k1", secretKey: "s1" },
        { name: "demo", apiKey: "k2", secretKey: "s2" },
      ],
      "accounts[1].name: duplicate account name demo",
    ],
    [
      "a duplicate apikey",
      [
        { name: "ci", apiKey: "K-dup-9f", secretKey: "s1" },
        { name: "qa", apiKey: "K-dup-9f", secretKey: "s2" },
      ],
      "accounts[1].apiKey: duplicate apikey: accounts ci and qa have the same one",
    ],
    [
      "the demo account's apikey",
      [{ name: "ci", apiKey: "demo-api-key", secretKey: "s1" }],
      "accounts[0].apiKey: duplicate apikey: accounts demo and ci have the same one",
    ],
    [
      "a duplicate secretkey",
      [{ name: "ci", apiKey: "k", secretKey: "admin-secret-key" }],
      "accounts[0].secretKey: duplicate secretkey: accounts admin and ci have the same one",
    ],
    [
      "a name that is not one",
      [{ name: "c i", apiKey: "k", secretKey: "s" }],
      'accounts[0].name: "c i" is not an account name',
    ],
    ["a key with spaces", [{ name: "ci", apiKey: "k k", secretKey: "s" }], "accounts[0].apiKey: must be printable"],
    ["an unknown field", [{ name: "ci", apiKey: "k", secretKey: "s", role: "x" }], "accounts[0].role: unknown field"],
    ["not a list", "ci:k:s", "accounts: must be a list"],
  ])("refuse %s at start, naming it (and no key)", async (_label, accounts, message) => {
    const start = startEmulator({ port: 0, accounts: accounts as never });
    await expect(start).rejects.toThrow(message);
    const error = (await start.catch((err: unknown) => err)) as Error;
    for (const key of ["K-dup-9f", "demo-api-key", "admin-secret-key"]) expect(error.message).not.toContain(key);
  });

  it("are read from --account on the command line", () => {
    expect(parseCli(["--account", "ci:k1:s1", "--account", "qa:k2:s:with:colons"])).toMatchObject({
      accounts: [
        { name: "demo", apiKey: "demo-api-key", secretKey: "demo-secret-key" },
        { name: "admin", apiKey: "admin-api-key", secretKey: "admin-secret-key" },
        { name: "ci", apiKey: "k1", secretKey: "s1" },
        { name: "qa", apiKey: "k2", secretKey: "s:with:colons" },
      ],
    });
    expect(parseCli(["--api-key", "dk"])).toMatchObject({
      accounts: [{ name: "demo", apiKey: "dk", secretKey: "demo-secret-key" }, { name: "admin" }],
    });
  });

  it.each([
    [["--account", "ci"], "--account ci:...: the apikey is missing (expected NAME:APIKEY:SECRETKEY)"],
    [["--account", "ci:k1"], "--account ci:...: the secretkey is missing (expected NAME:APIKEY:SECRETKEY)"],
    [["--account", "ci:k1:"], "--account ci:...: the secretkey is missing (expected NAME:APIKEY:SECRETKEY)"],
    [["--account", ":k1:s1"], "--account (empty name): the account name is missing"],
    [["--account", "ci:k1:s1", "--account", "ci:k2:s2"], "--account ci:... (NAME): duplicate account name ci"],
    [["--account", "demo:k1:s1"], "--account demo:... (NAME): duplicate account name demo"],
    [["--account", "ci:demo-api-key:s1"], "--account ci:... (APIKEY): duplicate apikey: accounts demo and ci"],
  ])("refuse %j on the command line, naming the flag", (args, message) => {
    expect(() => parseCli(args)).toThrow(message);
  });

  it("make the command line exit 2 with one line, without the keys", async () => {
    const child = spawnEmulatorCli([
      "--port",
      "0",
      "--account",
      "ci:SECRET-APIKEY-1:SECRET-KEY-1",
      "--account",
      "qa:SECRET-APIKEY-1:SECRET-KEY-2",
    ]);
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, "exit")) as [number];
    expect(code).toBe(2);
    expect(stderr).toBe("--account qa:... (APIKEY): duplicate apikey: accounts ci and qa have the same one\n");
  }, 30_000);
});
