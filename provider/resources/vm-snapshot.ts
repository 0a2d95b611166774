import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { withDefault } from "../engine/defaults";
import { byName } from "../engine/identity";
import { uuid } from "../engine/validators";
import { gone, job, recordLookup, untilOrGone } from "../engine/waits";
import { instanceDisksGb, perSnapshotGb } from "../pricing";
import { appliedWhen, args, byUuid, minutes, recordOutputs } from "./common";
import { text } from "../engine/inventory";

async function getVmSnapshot(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.vmSnapshot.list({ zoneUuid, uuid: id }), id);
}
type VmSnapshotRecord = NonNullable<Awaited<ReturnType<typeof getVmSnapshot>>>;

const vmSnapshotRecord = recordLookup("VM snapshot", (ctx, id, state: { zoneUuid?: string }) =>
  getVmSnapshot(ctx, state.zoneUuid!, id),
);

/** Until no job of the snapshot runs (deletes and reverts are refused meanwhile), or it is gone. */
const settled = untilOrGone<VmSnapshotRecord>(
  "to be Ready",
  (s) => s.status !== "Creating" && s.status !== "Reverting",
);

/** A point-in-time image of an instance's disks (and memory), which the instance can be reverted to. */
export const vmSnapshotDeclaration = defineResource({
  type: "VmSnapshot",
  description:
    "A point-in-time snapshot of an instance's disks, and optionally its memory. Change `revertTrigger` to " +
    "revert the instance to it.",
  // Snapshot storage per GB and month, the GB those of the instance's disks.
  price: perSnapshotGb(
    "VM snapshot storage",
    { call: "vmSnapshotCost", field: "vmSnapshotCost" },
    "instanceUuid",
    instanceDisksGb,
  ),
  inputs: z.object({
    instanceUuid: uuid.describe("The instance to snapshot."),
    name: args.name("VM snapshot").describe("The snapshot's name."),
    description: withDefault(z.string().max(255).optional().describe("What the snapshot holds."), ""),
    snapshotMemory: withDefault(
      z.boolean().optional().describe("Also capture the instance's memory (the instance must be Running)."),
      false,
    ),
    zoneUuid: args.zoneUuid("VM snapshot (the instance's zone)"),
    revertTrigger: z
      .string()
      .optional()
      .describe(
        "Any text. Setting it, or changing it to a new value, reverts the instance to this snapshot " +
          "and waits for the job. Its value at creation and its removal revert nothing. " +
          'Use e.g. a date or a counter: "2025-06-01-restore".',
      ),
  }),
  outputs: z.object({
    ...recordOutputs,
    isCurrent: z
      .boolean()
      .optional()
      .describe("Whether the instance currently derives from this snapshot (its latest, or the one reverted to)."),
    createdTimestamp: z.number().optional().describe("When the snapshot was taken (epoch milliseconds)."),
    domainName: z.string().optional().describe("The domain (account) the snapshot belongs to."),
  }),
  autoName: "name",
  zoneDefault: "zoneUuid",
  // The record names no instance (and no list filters by one); the trigger is the program's alone
  // (an import that answered none would see the program's value as a revert to do).
  unreadable: ["instanceUuid", "snapshotMemory", "revertTrigger"],
  replaceOn: ["instanceUuid", "name", "description", "snapshotMemory", "zoneUuid"],
  updates: [
    {
      fields: ["revertTrigger"],
      via: "revertToVmSnapshot",
      awaits: ["state", "job"],
      async *apply(ctx, id, news) {
        // Removing the trigger reverts nothing: only a (new) value asks for a revert.
        if (news.revertTrigger === undefined) return;
        yield settled;
        ctx.progress(`reverting the instance ${news.instanceUuid} to VM snapshot ${id}`);
        // After an ambiguous failure: Reverting shows the revert took effect (a second one is refused then);
        // one already finished cannot be told apart, and reverting again does no harm.
        const verify = appliedWhen(
          () => getVmSnapshot(ctx, news.zoneUuid!, id),
          (s) => s.status === "Reverting",
        );
        yield job((await ctx.client.vmSnapshot.revert({ uuid: id }, { verify })).jobId);
        yield settled;
      },
    },
  ],
  defaultTimeouts: { create: minutes(20), update: minutes(20), delete: minutes(10) },
  identity: {
    scope: (inputs) => `${inputs.zoneUuid!}/${inputs.name}`,
    candidates: (ctx, inputs, where) => ctx.client.vmSnapshot.list({ zoneUuid: inputs.zoneUuid! }, { where }),
    ...byName,
  },
  tagType: "VMSnapshot",
  inventory: {
    list: async (lists) =>
      (await lists.client.vmSnapshot.list({ zoneUuid: lists.zoneUuid })).map((snapshot) => ({
        id: snapshot.uuid,
        name: text(snapshot.name),
      })),
  },
  create: async (ctx, inputs) => {
    const name = inputs.name!;
    const zoneUuid = inputs.zoneUuid!;
    const snapshot = await ctx.client.vmSnapshot.create(
      {
        name,
        zoneUuid,
        virtualmachineUuid: inputs.instanceUuid,
        description: inputs.description,
        snapshotMemory: inputs.snapshotMemory,
      },
      { verify: ctx.findCreated },
    );
    return { id: snapshot.uuid, known: { createdTimestamp: snapshot.createdTimeStamp } };
  },
  record: vmSnapshotRecord,
  async *ready(_ctx, id) {
    // The listed record carries the create's jobId too (the create's answer may have been lost).
    yield job<VmSnapshotRecord>((snapshot) => snapshot.jobId);
    if (!(yield settled)) throw new Error(`VM snapshot ${id} disappeared while it was being taken`);
  },
  read: async (ctx, id, state) => {
    const snapshot = await vmSnapshotRecord.find(ctx, id, state);
    if (!snapshot) return undefined;
    return {
      // The record does not name its instance (the spec's fields): instanceUuid is kept from state.
      inputs: { name: snapshot.name, description: snapshot.description, zoneUuid: snapshot.zoneUuid },
      outputs: {
        uuid: snapshot.uuid,
        status: snapshot.status,
        isActive: snapshot.isActive,
        isCurrent: snapshot.isCurrent,
        createdTimestamp: snapshot.createdTimeStamp,
        domainName: snapshot.domainName,
      },
    };
  },
  async *delete(ctx, id, state) {
    if (!(await vmSnapshotRecord.find(ctx, id, state))) return;
    yield settled;
    await ctx.client.vmSnapshot.delete({ uuid: id });
    yield gone();
  },
});
