/**
 * Adoption without surprise, through the native plugin's gRPC service against the emulator: the
 * calls Pulumi's engine makes around an import (CLI 3.274, ImportStep.Apply), for the kinds whose
 * record cannot show a required argument (a VPC's offering; a VPN customer gateway's IKE and ESP
 * algorithms; a load-balancer rule's tier, on the address of a VPC of two tiers).
 * - `pulumi import`: Read(id) -> inputs, then Check(olds = news = those inputs): no failure (the CLI
 *   would warn "failed to validate ... a bug in the provider").
 * - the `import` option, and a preview after `pulumi import`: Check(read inputs, the program's) passes,
 *   and Diff(read inputs and outputs, the program's) is no change (a replace would fail the `up`).
 * - a state whose marker is in the outputs alone (written before it went into the inputs) diffs the same.
 * - a program that leaves out the required argument still fails Check, naming it.
 * - a refresh before any `up` keeps the marker.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's stubs, as the plugin loads them */
import { propsOf, serveProvider, struct, type ServedProvider } from "./served-provider";
import type * as ProviderMessages from "@pulumi/pulumi/proto/provider_pb";
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";

import { NOT_READ_ON_IMPORT } from "../../../provider/engine/engine";

jest.setTimeout(60_000);

const pb = require("@pulumi/pulumi/proto/provider_pb") as typeof ProviderMessages;

type Values = Record<string, unknown>;
const { DiffChanges } = pb.DiffResponse;

let emulator: RunningEmulator;
let served: ServedProvider;

const rpc = <T>(method: string, request: unknown): Promise<T> => served.rpc<T>(method, request);

/**
 * A resource the program declares: its kind, logical name, and the arguments it declares (every one
 * the record shows, as a program written by `restcloud discover` does, and those it cannot show).
 */
interface Declared {
  kind: string;
  name: string;
  program: Values;
  id: string;
}

/** The request about a resource: its URN and type token set. */
function about<R extends { setUrn(urn: string): R; setType(type: string): R }>(request: R, r: Declared): R {
  const type = `restcloud:index:${r.kind}`;
  return request.setUrn(`urn:pulumi:dev::adopt::${type}::${r.name}`).setType(type);
}

async function check(r: Declared, olds: Values, news: Values): Promise<{ inputs: Values; failures: string[] }> {
  const request = about(new pb.CheckRequest(), r)
    .setName(r.name)
    .setOlds(struct(olds))
    .setNews(struct(news))
    .setRandomseed(new Uint8Array(32));
  const response = await rpc<ProviderMessages.CheckResponse>("check", request);
  return {
    inputs: propsOf(response.getInputs()).props,
    failures: response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
  };
}

async function diff(r: Declared, oldInputs: Values, oldOutputs: Values, news: Values) {
  const request = about(new pb.DiffRequest(), r)
    .setId(r.id)
    .setOldInputs(struct(oldInputs))
    .setOlds(struct(oldOutputs))
    .setNews(struct(news));
  const response = await rpc<ProviderMessages.DiffResponse>("diff", request);
  return { changes: response.getChanges(), diffs: response.getDiffsList(), replaces: response.getReplacesList() };
}

/** Read by id alone (an import), or with the state (a refresh). */
async function read(r: Declared, state?: { inputs: Values; outputs: Values }) {
  const request = about(new pb.ReadRequest(), r).setId(r.id);
  if (state) request.setInputs(struct(state.inputs)).setProperties(struct(state.outputs));
  const response = await rpc<ProviderMessages.ReadResponse>("read", request);
  return { inputs: propsOf(response.getInputs()).props, outputs: propsOf(response.getProperties()).props };
}

/** Creates the resource as `pulumi up` would (Check, then Create), and keeps what the program declares. */
async function declare(kind: string, name: string, args: Values): Promise<Declared> {
  const r: Declared = { kind, name, program: {}, id: "" };
  const checked = await check(r, {}, args);
  expect(checked.failures).toEqual([]);
  const created = await rpc<ProviderMessages.CreateResponse>(
    "create",
    about(new pb.CreateRequest(), r).setProperties(struct(checked.inputs)).setTimeout(60),
  );
  return { ...r, program: checked.inputs, id: created.getId() };
}

const declared: Record<string, Declared> = {};
/** The required argument no record of the kind shows, per resource. */
const NOT_SHOWN: Record<string, string[]> = {
  net: ["vpcOfferingUuid"],
  office: ["ikeEncryption", "ikeHash", "espEncryption", "espHash"],
  web: ["networkUuid"],
};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  const zoneUuid = emulator.context.catalog.zones[0]!.uuid;
  const zone = emulator.context.catalog.zoneCatalog(zoneUuid)!;
  served = await serveProvider();
  await rpc(
    "configure",
    new pb.ConfigureRequest().setArgs(struct({ apiUrl: emulator.url, ...DEMO_CREDENTIALS, zoneUuid })),
  );
  const net = await declare("Vpc", "net", {
    name: "adopt-vpc",
    cidr: "10.60.0.0/16",
    vpcOfferingUuid: zone.vpcOfferings[0]!.uuid,
    description: "adopted",
  });
  const tierOffering = zone.networkOfferings.find((o) => o.type === "VPC")!.uuid;
  const tiers = [];
  for (const i of [1, 2]) {
    tiers.push(
      await declare("VpcTier", `tier${i}`, {
        name: `adopt-tier${i}`,
        vpcUuid: net.id,
        cidr: `10.60.${i}.0/24`,
        networkOfferingUuid: tierOffering,
      }),
    );
  }
  const ip = await declare("PublicIpAddress", "ip", { vpcUuid: net.id });
  const web = await declare("LoadBalancerRule", "web", {
    name: "adopt-web",
    ipAddressUuid: ip.id,
    networkUuid: tiers[1]!.id,
    publicPort: 80,
    privatePort: 8080,
  });
  const office = await declare("VpnCustomerGateway", "office", {
    name: "adopt-office",
    gateway: "198.51.100.9",
    cidrList: "192.168.70.0/24",
    ipsecPresharedKey: "adopt-psk",
    ikePolicy: "Group 14(modp2048)",
    ikeEncryption: "aes256",
    ikeHash: "sha256",
    espEncryption: "aes192",
    espHash: "sha384",
    // What the API applies when the create leaves them out, declared as the record shows them.
    ikeVersion: "ike",
    deadPeerDetection: false,
    forceEncapsulation: false,
    splitConnection: false,
  });
  Object.assign(declared, { net, web, office });
});

afterAll(async () => {
  served?.stop();
  await emulator?.stop();
});

const NAMES = ["net", "office", "web"];

test.each(NAMES)("%s: the import's inputs name what the record does not show, and lack it", async (name) => {
  const r = declared[name]!;
  const imported = await read(r);
  expect([...(imported.inputs[NOT_READ_ON_IMPORT] as string[])].sort()).toEqual(
    expect.arrayContaining([...NOT_SHOWN[name]!].sort()),
  );
  for (const key of NOT_SHOWN[name]!) expect({ key, value: imported.inputs[key] }).toEqual({ key, value: undefined });
  // The outputs carry it too (a state written before it went into the inputs as well had it there only).
  expect(imported.outputs[NOT_READ_ON_IMPORT]).toEqual(imported.inputs[NOT_READ_ON_IMPORT]);
});

test.each(NAMES)("%s: pulumi import's Check of the read inputs against themselves finds no failure", async (name) => {
  const imported = await read(declared[name]!);
  expect((await check(declared[name]!, imported.inputs, imported.inputs)).failures).toEqual([]);
});

test.each(NAMES)(
  "%s: the import option, and a preview after pulumi import: Check passes, Diff finds no change",
  async (name) => {
    const r = declared[name]!;
    const imported = await read(r);
    const checked = await check(r, imported.inputs, r.program);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs[NOT_READ_ON_IMPORT]).toBeUndefined();
    expect(await diff(r, imported.inputs, imported.outputs, checked.inputs)).toEqual({
      changes: DiffChanges.DIFF_NONE,
      diffs: [],
      replaces: [],
    });
  },
);

test.each(NAMES)("%s: a state with the marker in its outputs alone diffs the same", async (name) => {
  const r = declared[name]!;
  const imported = await read(r);
  const { [NOT_READ_ON_IMPORT]: _marker, ...oldInputs } = imported.inputs;
  expect(await diff(r, oldInputs, imported.outputs, r.program)).toEqual({
    changes: DiffChanges.DIFF_NONE,
    diffs: [],
    replaces: [],
  });
  // Without any marker, the program's value is a change: the marker is what keeps the first diff quiet.
  const { [NOT_READ_ON_IMPORT]: _too, ...outputs } = imported.outputs;
  expect((await diff(r, oldInputs, outputs, r.program)).diffs).toEqual(expect.arrayContaining(NOT_SHOWN[name]!));
});

test.each(NAMES)("%s: a program that leaves out the required argument still fails Check, naming it", async (name) => {
  const r = declared[name]!;
  const imported = await read(r);
  const [missing] = NOT_SHOWN[name]!;
  const { [missing!]: _left, ...program } = r.program;
  const { failures } = await check(r, imported.inputs, program);
  // (The reason goes on with the choices of an enum, and with the field's Python and Go spellings.)
  expect(failures).toEqual([expect.stringMatching(new RegExp(`^${missing}: is required`))]);
});

test("a changed argument the record shows is still a change after an import", async () => {
  const r = declared.web!;
  const imported = await read(r);
  const changed = await diff(r, imported.inputs, imported.outputs, { ...r.program, publicPort: 81 });
  expect(changed.replaces).toEqual(["publicPort"]);
});

test("a refresh before any up keeps the marker; one after the program declared the arguments drops it", async () => {
  const r = declared.net!;
  const imported = await read(r);
  const refreshed = await read(r, imported);
  expect(refreshed.inputs[NOT_READ_ON_IMPORT]).toEqual(imported.inputs[NOT_READ_ON_IMPORT]);
  // After an up (a same step): the program's inputs, the imported outputs.
  const afterUp = await read(r, { inputs: r.program, outputs: imported.outputs });
  expect(afterUp.inputs.vpcOfferingUuid).toBe(r.program.vpcOfferingUuid);
  expect(afterUp.inputs[NOT_READ_ON_IMPORT]).toEqual([
    "networkDomain",
    "publicLoadBalancerProvider",
    "restartTriggers",
  ]);
});
