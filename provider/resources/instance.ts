import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { defaultValue, stateDefaults, withDefault, withDefaultText } from "../engine/defaults";
import { byName } from "../engine/identity";
import { catalogReference, resourceName, uuid } from "../engine/validators";
import { ApiError } from "../client/errors";
import { findInZones } from "../engine/import";
import { gone, recordLookup, showing, until } from "../engine/waits";
import { priceInstance } from "../pricing";
import { appliedWhen, args, byUuid, minutes, recordOutputs, triggered, triggers } from "./common";
import { text, type InventoryLists, type Mark } from "../engine/inventory";
import { zoneVolumes } from "./volume";

/** A zone's instances, listed once for the kinds that read them (instances, static NAT). */
const zoneInstances = (lists: InventoryLists) =>
  lists.once("instance.list", () => lists.client.instance.list({ zoneUuid: lists.zoneUuid }));

/** The instances a resource can hold: not Destroyed (recoverable) nor Expunging. */
export const liveInstances = async (lists: InventoryLists) =>
  (await zoneInstances(lists)).filter((i) => i.state !== "Destroyed" && i.state !== "Expunging");

/**
 * The data volume each instance was created with (`diskSize`: the instance's argument holds it):
 * the first attached data volume of its plan and size. The service keeps it when the instance goes.
 */
async function dataDiskMarks(lists: InventoryLists): Promise<Mark[]> {
  const [instances, volumes] = await Promise.all([liveInstances(lists), zoneVolumes(lists)]);
  return instances.flatMap((instance) => {
    const size = Number(instance.diskSize ?? 0);
    if (!(size > 0)) return [];
    const first = volumes
      .filter(
        (v) =>
          v.volumeType !== "ROOT" &&
          v.vmUuid === instance.uuid &&
          v.storageOfferingUuid === instance.storageOfferingUuid &&
          Number(v.storageDiskSize) === size,
      )
      .sort((a, b) => Number(a.createdTimeStamp ?? 0) - Number(b.createdTimeStamp ?? 0))[0];
    if (!first) return [];
    const derived = `the data disk instance ${instance.uuid} was created with (its diskSize)`;
    return [
      { kinds: ["Volume", "UploadedVolume"], id: first.uuid, derived, derivedFrom: text(first.vmUuid), outlives: true },
    ];
  });
}

const DESIRED_STATES = ["Running", "Stopped"] as const;
type DesiredState = (typeof DESIRED_STATES)[number];

async function getInstance(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.instance.list({ zoneUuid, vmUuid: id }), id);
}
type Vm = NonNullable<Awaited<ReturnType<typeof getInstance>>>;

const instanceRecord = recordLookup("instance", (ctx, id, state: { zoneUuid?: string }) =>
  getInstance(ctx, state.zoneUuid!, id),
);

/** Starting and Stopping are transitions: actions wait until the instance has settled. */
const settled = until<Vm>("to settle", (vm) => vm.state !== "Starting" && vm.state !== "Stopping");
const inState = (state: string) => until<Vm>(`to be ${state}`, (vm) => vm.state === state);

/** Starts or stops the instance, once it has settled, unless it is in the desired state already. */
async function* setRunState(ctx: OperationContext, zoneUuid: string, id: string, desired: DesiredState) {
  const current = (yield settled) as Vm;
  if (current.state === desired) return;
  const transition = desired === "Running" ? "Starting" : "Stopping";
  const verify = appliedWhen(
    () => getInstance(ctx, zoneUuid, id),
    (i) => i.state === transition || i.state === desired,
  );
  if (desired === "Running") await ctx.client.instance.start({ uuid: id }, { verify });
  else await ctx.client.instance.stop({ uuid: id, forceStop: false }, { verify });
  yield inState(desired);
}

async function* resize(ctx: OperationContext, zoneUuid: string, id: string, news: InstanceInputs) {
  const request = {
    uuid: id,
    offeringUuid: news.computeOfferingUuid,
    cpuCore: news.cpuCore,
    memory: news.memory,
  };
  const newSize = showing<Vm>(
    {
      computeOfferingUuid: news.computeOfferingUuid,
      ...(news.cpuCore === undefined ? {} : { cpuCore: String(news.cpuCore) }),
      ...(news.memory === undefined ? {} : { memory: String(news.memory) }),
    },
    "to show its new size",
  );
  try {
    await ctx.client.instance.resize(request);
  } catch (error) {
    // Some deployments resize only a stopped instance: stop it, resize, and start it again.
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    ctx.progress(`instance ${id} must be stopped to resize: stopping it`);
    yield* setRunState(ctx, zoneUuid, id, "Stopped");
    await ctx.client.instance.resize(request);
    yield newSize;
    if ((news.state ?? defaultValue(inputs.shape.state)) === "Running")
      yield* setRunState(ctx, zoneUuid, id, "Running");
    return;
  }
  yield newSize;
}

/**
 * A new SSH key pair, in place. The spec leaves resetSSHkey's parameters and answer unshown; CloudStack,
 * which such portals run on, resets a key only on a Stopped instance (and the emulator refuses a
 * Running one with 409). So the step stops a running instance, resets the key (installed at its next
 * boot) and starts it again when its declared state is Running: a restart instead of a replacement,
 * which would lose the instance's disks and addresses. Removing the argument resets nothing.
 */
async function* resetSshKey(ctx: OperationContext, zoneUuid: string, id: string, news: InstanceInputs) {
  const sshKeyName = news.sshKeyName;
  if (sshKeyName === undefined) return;
  const before = (yield settled) as Vm;
  if (before.state === "Running") yield* setRunState(ctx, zoneUuid, id, "Stopped");
  // The record shows the key by uuid: a new sshUuid shows a reset that took effect. Where it does not
  // change, the verification finds nothing and the call is sent again: resetting to one key twice
  // has the effect of doing it once.
  const verify = appliedWhen(
    () => getInstance(ctx, zoneUuid, id),
    (vm) => before.sshUuid !== undefined && vm.sshUuid !== before.sshUuid,
  );
  await ctx.client.instance.resetSshKey({ uuid: id, sshKeyName }, { verify });
  if ((news.state ?? defaultValue(inputs.shape.state)) === "Running") yield* setRunState(ctx, zoneUuid, id, "Running");
}

/**
 * The ISO attached (one at a time): the old one detached, the new one attached. The record shows no
 * ISO, so the step goes by the last value applied (`olds`); neither call is resent after an
 * ambiguous failure (nothing could tell whether it took effect, and the service refuses a repeat).
 */
async function* changeIso(ctx: OperationContext, id: string, news: InstanceInputs, olds: Partial<InstanceInputs>) {
  if (news.isoUuid === olds.isoUuid) return;
  yield settled;
  if (olds.isoUuid !== undefined) await ctx.client.instance.detachIso({ uuid: id });
  if (news.isoUuid !== undefined) await ctx.client.instance.attachIso({ uuid: id, isoUuid: news.isoUuid });
}

/**
 * The data disk the service made with the instance (`diskSize`): `DATA-<name>`, attached to it until
 * its expunge detaches it and leaves it behind. It is the instance's, so its delete deletes it too
 * (also when an earlier delete expunged the instance and stopped before the disk). The client's
 * deleteVolume confirms each gone.
 */
async function deleteDataDisk(ctx: OperationContext, zoneUuid: string, id: string, state: InstanceInputs) {
  if (state.diskSize === undefined || !state.name) return;
  const disks = (await ctx.client.volume.list({ zoneUuid })).filter(
    (v) =>
      v.name === `DATA-${state.name}` && v.volumeType?.toUpperCase() === "DATADISK" && (!v.vmUuid || v.vmUuid === id),
  );
  for (const disk of disks) await ctx.client.volume.delete({ uuid: disk.uuid, zoneUuid });
}

/** Whether the compute plan is a custom one (cpuCore and memory are its arguments, no fixed plan's). */
async function isCustomPlan(ctx: OperationContext, zoneUuid: string, computeOfferingUuid: string): Promise<boolean> {
  const plans = await ctx.client.costEstimate.computePlans({ zoneUuid, computeOfferingType: "CUSTOM_PLAN" });
  return [...(plans.payAsYouGoOfferingCost ?? [])].some((p) => p.uuid === computeOfferingUuid && p.isCustom !== false);
}

/** A positive whole number the record carries (0 or absent: not set). */
const positive = (value: number | string | undefined): number | undefined => {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isInteger(n) && n > 0 ? n : undefined;
};

async function attachedNetworks(ctx: OperationContext, id: string): Promise<string[]> {
  const nics = await ctx.client.instance.networks({ uuid: id });
  return nics.filter((n) => !n.defaultNetwork && n.uuid).map((n) => n.uuid!);
}

async function reconcileNetworks(ctx: OperationContext, zoneUuid: string, id: string, wanted: readonly string[]) {
  const current = await attachedNetworks(ctx, id);
  // After an ambiguous failure, the instance's network list shows whether the call took effect.
  const attached = async (networkUuid: string) => (await attachedNetworks(ctx, id)).includes(networkUuid);
  for (const networkUuid of wanted.filter((n) => !current.includes(n))) {
    await ctx.client.instance.attachNetwork(
      { uuid: id, networkUuid },
      { verify: async () => ((await attached(networkUuid)) ? getInstance(ctx, zoneUuid, id) : undefined) },
    );
  }
  for (const networkUuid of current.filter((n) => !wanted.includes(n))) {
    await ctx.client.instance.detachNetwork(
      { uuid: id, networkUuid },
      { verify: async () => ((await attached(networkUuid)) ? undefined : {}) },
    );
  }
}

const inputs = z.object({
  name: args.name("instance").describe("The instance's host name (to rename an instance in place, set displayName)."),
  zoneUuid: args.zoneUuid("instance"),
  templateUuid: catalogReference("template").describe("The template (OS image) to boot (see getTemplates)."),
  computeOfferingUuid: catalogReference("computeOffering").describe("The compute plan (see getComputePlans)."),
  networkUuid: uuid.describe("The default network (a Network or a VpcTier)."),
  cpuCore: z.number().int().min(1).max(128).optional().describe("vCPUs, for a custom compute plan only."),
  memory: z.number().int().min(512).optional().describe("Memory in MiB, for a custom compute plan only."),
  displayName: withDefaultText(resourceName.optional().describe("The name shown in the portal."), "`name`"),
  rootDiskSize: withDefaultText(z.number().int().min(1).optional().describe("The root disk in GB."), "the template's"),
  diskSize: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("A data disk created with the instance, in GB (prefer a Volume, which resizes in place)."),
  storageOfferingUuid: catalogReference("storageOffering").optional().describe("The storage plan of `diskSize`."),
  sshKeyName: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The name of the SSH key pair installed on the instance. A new name resets the key on the stopped " +
        "instance, which then starts again if its state is Running; removing it resets nothing.",
    ),
  isoUuid: uuid
    .optional()
    .describe("The ISO attached to the instance (as a CD-ROM; one at a time); unset to detach it."),
  securityGroupName: z.string().min(1).optional().describe("A security group applied at boot."),
  hypervisorName: z.string().min(1).optional().describe("The hypervisor to place it on."),
  state: withDefault(
    z.enum(DESIRED_STATES, { error: "must be Running or Stopped" }).optional().describe("The desired power state."),
    "Running",
    { keptInState: true },
  ),
  additionalNetworkUuids: z.array(uuid).optional().describe("Networks attached besides the default one."),
  rebootTriggers: triggers(
    "reboots the instance (stopInstance, then startInstance; the API has no reboot call) when its state is Running",
  ),
  expungeOnDestroy: withDefault(
    z
      .boolean()
      .optional()
      .describe(
        "Expunge the instance on destroy (true), or leave it Destroyed and recoverable for a while (false); a destroyed instance still blocks the deletion of its network and of its security group.",
      ),
    true,
    { keptInState: true },
  ),
});
type InstanceInputs = z.infer<typeof inputs>;

/** A virtual machine. */
export const instanceDeclaration = defineResource({
  type: "Instance",
  description: "A virtual machine booted from a template on a network, with a compute plan.",
  price: priceInstance,
  inputs: inputs.superRefine((v, ctx) => {
    if ((v.cpuCore === undefined) !== (v.memory === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [v.cpuCore === undefined ? "cpuCore" : "memory"],
        message: "cpuCore and memory go together (custom compute plans)",
      });
    }
    if (v.diskSize !== undefined && v.storageOfferingUuid === undefined) {
      ctx.addIssue({ code: "custom", path: ["storageOfferingUuid"], message: "is required with diskSize" });
    }
  }),
  outputs: z.object({
    ...recordOutputs,
    privateIp: z.string().optional().describe("The instance's address on its default network."),
    templateName: z.string().optional().describe("The template's name."),
    networkName: z.string().optional().describe("The default network's name."),
    volumeSize: z.string().optional().describe("The root volume's size as the API reports it."),
    instanceOwnerName: z.string().optional().describe("The owning account's name."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  defaults: stateDefaults(inputs),
  // The record shows the key by uuid only, and neither the ISO, the security group nor the hypervisor;
  // the triggers and what destroy does are the program's alone.
  unreadable: ["sshKeyName", "isoUuid", "securityGroupName", "hypervisorName", "rebootTriggers", "expungeOnDestroy"],
  replaceOn: [
    "name",
    "zoneUuid",
    "templateUuid",
    "networkUuid",
    "rootDiskSize",
    "diskSize",
    "storageOfferingUuid",
    "securityGroupName",
    "hypervisorName",
  ],
  // In this order: resize first (it may stop and restart), then the name, the networks, the key (it
  // may stop and restart), the ISO, a reboot (after the ISO: to boot from it), the power state.
  updates: [
    {
      fields: ["computeOfferingUuid", "cpuCore", "memory"],
      via: "resizeVm (stopping and restarting only if the API requires it)",
      awaits: ["visible", "state"],
      apply: (ctx, id, news) => resize(ctx, news.zoneUuid!, id, news),
    },
    {
      fields: ["displayName"],
      via: "updateInstanceName",
      awaits: ["visible"],
      async *apply(ctx, id, news) {
        const displayName = news.displayName ?? news.name!;
        await ctx.client.instance.updateName({ uuid: id, displayName });
        yield showing<Vm>({ displayName }, "to show its display name");
      },
    },
    {
      fields: ["additionalNetworkUuids"],
      via: "attachNetwork, detachNetwork",
      apply: (ctx, id, news) => reconcileNetworks(ctx, news.zoneUuid!, id, news.additionalNetworkUuids ?? []),
    },
    {
      fields: ["sshKeyName"],
      via: "resetSSHkey (stopping and restarting a running instance)",
      reaches: ["instance.resetSshKey"],
      awaits: ["state"],
      apply: (ctx, id, news) => resetSshKey(ctx, news.zoneUuid!, id, news),
    },
    {
      fields: ["isoUuid"],
      via: "detachIso, attachIso",
      reaches: ["instance.detachIso", "instance.attachIso"],
      awaits: ["state"],
      apply: (ctx, id, news, olds) => changeIso(ctx, id, news, olds),
    },
    {
      fields: ["rebootTriggers"],
      via: "stopInstance, startInstance",
      awaits: ["state"],
      async *apply(ctx, id, news) {
        if (!triggered(news.rebootTriggers) || (news.state ?? defaultValue(inputs.shape.state)) !== "Running") return;
        ctx.progress(`rebooting instance ${id}`);
        yield* setRunState(ctx, news.zoneUuid!, id, "Stopped");
        yield* setRunState(ctx, news.zoneUuid!, id, "Running");
      },
    },
    {
      fields: ["state"],
      via: "startInstance, stopInstance",
      awaits: ["state"],
      apply: (ctx, id, news) => setRunState(ctx, news.zoneUuid!, id, news.state ?? defaultValue(inputs.shape.state)),
    },
    { fields: ["expungeOnDestroy"], via: "(provider setting, no API call)", apply: async () => undefined },
  ],
  defaultTimeouts: { create: minutes(15), update: minutes(15), delete: minutes(15) },
  identity: {
    scope: (inputs) => `${inputs.zoneUuid!}/${inputs.name}`,
    candidates: (ctx, inputs, where) => ctx.client.instance.list({ zoneUuid: inputs.zoneUuid! }, { where }),
    ...byName,
  },
  tagType: "UserVm",
  inventory: {
    list: async (lists) =>
      (await liveInstances(lists)).map((i) => ({ id: i.uuid, name: text(i.name), parentId: text(i.networkUuid) })),
    // Destroyed instances stay recoverable until the service expunges them: counted, not listed.
    destroyed: async (lists) => (await zoneInstances(lists)).length - (await liveInstances(lists)).length,
    marks: dataDiskMarks,
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const zoneUuid = inputs.zoneUuid!;
    const instance = await ctx.client.instance.create(
      {
        name,
        zoneUuid,
        templateUuid: inputs.templateUuid,
        computeOfferingUuid: inputs.computeOfferingUuid,
        networkUuid: inputs.networkUuid,
        cpuCore: inputs.cpuCore === undefined ? undefined : String(inputs.cpuCore),
        memory: inputs.memory === undefined ? undefined : String(inputs.memory),
        rootDiskSize: inputs.rootDiskSize,
        diskSize: inputs.diskSize,
        storageOfferingUuid: inputs.storageOfferingUuid,
        sshKeyName: inputs.sshKeyName,
        securitygroupName: inputs.securityGroupName,
        hypervisorName: inputs.hypervisorName,
      },
      { verify: ctx.findCreated },
    );
    return { id: instance.uuid };
  },
  record: instanceRecord,
  ready: [inState("Running")],
  // A new instance runs, is shown by its name, has its default network only and no ISO (its key is the
  // create's: no reset).
  createdAs: (inputs) => ({
    displayName: inputs.name,
    additionalNetworkUuids: [],
    isoUuid: undefined,
    state: "Running" as const,
  }),
  // Import: the zone whose list holds the instance; the additional networks (read when declared);
  // cpuCore and memory when its plan is a custom one (for a fixed plan they are not arguments).
  locate: async (ctx, id) => {
    const hit = await findInZones(ctx, (zoneUuid) => getInstance(ctx, zoneUuid, id));
    if (!hit) return undefined;
    const { zoneUuid, found: instance } = hit;
    const custom =
      instance.computeOfferingUuid !== undefined && (await isCustomPlan(ctx, zoneUuid, instance.computeOfferingUuid));
    return {
      zoneUuid,
      additionalNetworkUuids: await attachedNetworks(ctx, id),
      ...(custom ? { cpuCore: positive(instance.cpuCore), memory: positive(instance.memory) } : {}),
    };
  },
  read: async (ctx, id, state) => {
    const instance = await instanceRecord.find(ctx, id, state);
    // Destroyed (recoverable) or being expunged: gone as far as the program is concerned.
    if (!instance || instance.state === "Destroyed" || instance.state === "Expunging") return undefined;
    const settled = instance.state === "Running" || instance.state === "Stopped" ? instance.state : undefined;
    return {
      inputs: {
        name: instance.name,
        zoneUuid: instance.zoneUuid,
        templateUuid: instance.templateUuid,
        computeOfferingUuid: instance.computeOfferingUuid,
        networkUuid: instance.networkUuid,
        displayName: instance.displayName,
        // The record shows the plan's size for every plan: arguments only of a custom plan (declared).
        ...(state.cpuCore === undefined && state.memory === undefined
          ? {}
          : { cpuCore: positive(instance.cpuCore), memory: positive(instance.memory) }),
        rootDiskSize: positive(instance.rootDiskSize),
        // No data disk: a size of 0 and no storage plan.
        diskSize: positive(instance.diskSize),
        storageOfferingUuid: instance.storageOfferingUuid || undefined,
        state: settled as DesiredState | undefined,
        additionalNetworkUuids:
          state.additionalNetworkUuids === undefined ? undefined : await attachedNetworks(ctx, id),
      },
      outputs: {
        uuid: instance.uuid,
        status: instance.status,
        isActive: instance.isActive,
        privateIp: instance.instancePrivateIp,
        templateName: instance.templateName,
        networkName: instance.networkName,
        volumeSize: instance.volumeSize,
        instanceOwnerName: instance.instanceOwnerName,
      },
    };
  },
  async *delete(ctx, id, state) {
    const zoneUuid = state.zoneUuid!;
    const expunge = state.expungeOnDestroy ?? defaultValue(inputs.shape.expungeOnDestroy);
    const instance = await getInstance(ctx, zoneUuid, id);
    if (!instance || instance.state === "Expunging") {
      if (expunge) await deleteDataDisk(ctx, zoneUuid, id, state);
      return;
    }
    if (instance.state === "Destroyed" && !expunge) return;
    // After an ambiguous failure: destroyed or expunging shows it took effect (gone: the resend's 404 does).
    const verify = appliedWhen(
      () => getInstance(ctx, zoneUuid, id),
      (i) => i.state === (expunge ? "Expunging" : "Destroyed"),
    );
    await ctx.client.instance.destroy({ uuid: id, expunge }, { verify });
    if (expunge) {
      yield gone("to be expunged");
      await deleteDataDisk(ctx, zoneUuid, id, state);
    } else {
      yield inState("Destroyed");
    }
  },
});
