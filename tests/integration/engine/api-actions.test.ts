/**
 * The API's actions and in-place state at the engine (issue 25), against the emulator over HTTP:
 * trigger lists (restartTriggers on Vpc and Network, rebootTriggers on Instance) perform their action
 * once per change and never at creation, nor on their removal; an instance's ISO attached after its
 * create, changed and detached in place; its SSH key reset in place (stopped, reset, started again
 * only when it is to run); a volume uploaded from a URL, its job awaited, deleted. Counted in the
 * emulator's request log.
 */
import { startEmulator, DEMO_CREDENTIALS, type RunningEmulator } from "../../../emulator/index";
import { RestCloudClient } from "../../../provider/client";
import type { ResourceDeclaration } from "../../../provider/engine/declaration";
import { Engine } from "../../../provider/engine/engine";
import { IdentityRegistry } from "../../../provider/engine/identity";
import { instanceDeclaration } from "../../../provider/resources/instance";
import { networkDeclaration } from "../../../provider/resources/network";
import { uploadedVolumeDeclaration } from "../../../provider/resources/uploaded-volume";
import { vpcDeclaration } from "../../../provider/resources/vpc";
import { discoverCatalog, type CatalogIds } from "../../e2e/catalog-ids";

jest.setTimeout(120_000);

let emulator: RunningEmulator;
let catalog: CatalogIds;
let client: RestCloudClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, asyncDelayMs: 20 });
  catalog = await discoverCatalog(emulator.url);
  client = new RestCloudClient({ apiUrl: emulator.url, ...DEMO_CREDENTIALS });
});
afterAll(async () => emulator?.stop());

const engine = (declaration: unknown) =>
  new Engine(declaration as ResourceDeclaration, {
    client: () => client,
    settings: () => ({ zoneUuid: catalog.zoneUuid }),
    identities: new IdentityRegistry(),
  });

type Props = Record<string, unknown>;

/** A resource driven through the engine as Pulumi would: check, create, then diffs and updates. */
async function create(declaration: unknown, args: Props, name: string) {
  const e = engine(declaration);
  const { inputs, failures } = e.check({}, args, { logicalName: name });
  expect(failures).toEqual([]);
  const made = await e.create(inputs);
  let state = made.state;
  return {
    id: made.id,
    engine: e,
    get state() {
      return state;
    },
    /** Checks and diffs `change` against the state, then updates; answers the arguments updated. */
    async update(change: Props): Promise<string[]> {
      const { inputs: news, failures: bad } = e.check(state, { ...pick(state, declaration), ...change });
      expect(bad).toEqual([]);
      const diff = e.diff(state, news, state);
      expect(diff.replaces).toEqual([]);
      if (diff.changes) state = await e.update(made.id, state, news);
      return diff.updates;
    },
  };
}

/** The arguments of a state (its outputs left out), undefined ones dropped. */
function pick(state: Props, declaration: unknown): Props {
  const keys = Object.keys((declaration as ResourceDeclaration).inputs.shape);
  return Object.fromEntries(keys.filter((k) => state[k] !== undefined).map((k) => [k, state[k]]));
}

async function clearRequests(): Promise<void> {
  await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
}

/** Per operation among `names`, the requests logged since the last clear (absent: none). */
async function sent(...names: string[]): Promise<Record<string, number>> {
  const { entries } = (await (await fetch(`${emulator.url}/_emulator/requests?limit=5000`)).json()) as {
    entries: { operation: string | null }[];
  };
  const counts: Record<string, number> = {};
  for (const { operation } of entries)
    if (operation !== null && names.includes(operation)) counts[operation] = (counts[operation] ?? 0) + 1;
  return counts;
}

const instanceView = async (id: string) =>
  (
    (await (await fetch(`${emulator.url}/_emulator/resources?account=demo`)).json()) as Record<
      string,
      Record<string, Props>
    >
  ).instance?.[id];

const ISO_A = "5b0e0a1e-0000-4000-8000-00000000000a";
const ISO_B = "5b0e0a1e-0000-4000-8000-00000000000b";
const INSTANCE_ACTIONS = ["resetSSHkey", "attachIso", "detachIso", "stopInstance", "startInstance"];

describe("restartTriggers", () => {
  test.each([
    ["Vpc", vpcDeclaration, { cidr: "10.40.0.0/16" }, "restartVpc"],
    ["Network", networkDeclaration, {}, "restartNetwork"],
  ] as const)("%s: once per change, never at creation nor on removal", async (kind, declaration, extra, action) => {
    const offering = kind === "Vpc" ? { vpcOfferingUuid: catalog.vpcOfferingUuid } : {};
    const network = kind === "Network" ? { networkOfferingUuid: catalog.isolatedOfferingUuid } : {};
    await clearRequests();
    const r = await create(declaration, { ...extra, ...offering, ...network, restartTriggers: ["a"] }, kind);
    expect(await sent(action)).toEqual({});

    expect(await r.update({ restartTriggers: ["a"] })).toEqual([]);
    expect(await r.update({ restartTriggers: ["b", 2, { deep: true }] })).toEqual(["restartTriggers"]);
    expect(await sent(action)).toEqual({ [action]: 1 });
    expect(r.state.status).toBe("Active"); // the restart was awaited

    expect(await r.update({ restartTriggers: undefined })).toEqual(["restartTriggers"]);
    expect(await sent(action)).toEqual({ [action]: 1 });
    await r.engine.delete(r.id, r.state);
  });
});

describe("an instance's ISO, SSH key and rebootTriggers, in place", () => {
  test("attached after the create, reset, changed, rebooted, detached: the same instance throughout", async () => {
    const network = await create(networkDeclaration, { networkOfferingUuid: catalog.isolatedOfferingUuid }, "net");
    await clearRequests();
    const vm = await create(
      instanceDeclaration,
      {
        templateUuid: catalog.ubuntuTemplateUuid,
        computeOfferingUuid: catalog.smallPlanUuid,
        networkUuid: network.id,
        sshKeyName: "key-a",
        isoUuid: ISO_A,
        rebootTriggers: [1],
      },
      "vm",
    );
    expect(await sent(...INSTANCE_ACTIONS)).toEqual({ attachIso: 1 });
    expect(await instanceView(vm.id)).toMatchObject({ state: "Running", _isoUuid: ISO_A, _sshKeyName: "key-a" });

    await clearRequests();
    expect(await vm.update({ sshKeyName: "key-b" })).toEqual(["sshKeyName"]);
    expect(await sent(...INSTANCE_ACTIONS)).toEqual({ stopInstance: 1, resetSSHkey: 1, startInstance: 1 });
    expect(await instanceView(vm.id)).toMatchObject({ state: "Running", _sshKeyName: "key-b" });

    await clearRequests();
    expect(await vm.update({ isoUuid: ISO_B, rebootTriggers: [2] })).toEqual(["isoUuid", "rebootTriggers"]);
    expect(await sent(...INSTANCE_ACTIONS)).toEqual({ detachIso: 1, attachIso: 1, stopInstance: 1, startInstance: 1 });
    expect(await instanceView(vm.id)).toMatchObject({ state: "Running", _isoUuid: ISO_B });

    // Declared Stopped: a key reset leaves it stopped, a reboot trigger does nothing.
    await clearRequests();
    const change = { state: "Stopped", sshKeyName: "key-c", rebootTriggers: [3], isoUuid: undefined };
    expect(await vm.update(change)).toEqual(["sshKeyName", "isoUuid", "state", "rebootTriggers"]);
    expect(await sent(...INSTANCE_ACTIONS)).toEqual({ stopInstance: 1, resetSSHkey: 1, detachIso: 1 });
    const stopped = await instanceView(vm.id);
    expect(stopped).toMatchObject({ state: "Stopped", _sshKeyName: "key-c" });
    expect(stopped?._isoUuid).toBeUndefined();

    // Removing the key name resets nothing.
    await clearRequests();
    expect(await vm.update({ sshKeyName: undefined })).toEqual(["sshKeyName"]);
    expect(await sent(...INSTANCE_ACTIONS)).toEqual({});

    await vm.engine.delete(vm.id, vm.state);
    await network.engine.delete(network.id, network.state);
  });
});

describe("UploadedVolume", () => {
  test("only an http or https URL and a known format pass check", () => {
    const { failures } = engine(uploadedVolumeDeclaration).check(
      {},
      { url: "ftp://images.example.com/a.qcow2", format: "ISO" },
      { logicalName: "bad" },
    );
    expect(failures.map((f) => f.property).sort()).toEqual(["format", "url"]);
  });

  test("created by the upload, its job awaited, deleted", async () => {
    await clearRequests();
    const volume = await create(
      uploadedVolumeDeclaration,
      { url: "https://images.example.com/data.qcow2", format: "QCOW2", checksum: "{SHA-256}" + "ab".repeat(32) },
      "image",
    );
    expect(await sent("uploadVolume")).toEqual({ uploadVolume: 1 });
    expect(volume.state).toMatchObject({ status: "Uploaded", size: 10, volumeType: "DATADISK" });
    // A refresh shows no drift: what the upload was made from is kept from the program.
    const live = await volume.engine.read(volume.id, volume.state);
    expect(live?.inputs).toEqual(pick(volume.state, uploadedVolumeDeclaration));
    await volume.engine.delete(volume.id, volume.state);
    expect(await client.volume.list({ zoneUuid: catalog.zoneUuid, uuid: volume.id })).toEqual([]);
  });
});
