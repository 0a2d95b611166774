import { z } from "zod";
import { defineResource, type OperationContext } from "../engine/declaration";
import { withDefault } from "../engine/defaults";
import { sameName } from "../engine/identity";
import { uuid } from "../engine/validators";
import { restcloudResource } from "../sdk/resource";
import { pollUntil, waitForGone } from "../client/waiters";
import { appliedWhen, args, byUuid, minutes, recordOutputs, waitOptions } from "./common";

async function getVmSnapshot(ctx: OperationContext, zoneUuid: string, id: string) {
  return byUuid(await ctx.client.vmSnapshot.list({ zoneUuid, uuid: id }), id);
}

/** Runs a VM-snapshot call that answers a jobId (create, revert), and waits for the job. */
async function awaitJob(ctx: OperationContext, record: { jobId?: string }): Promise<void> {
  if (record.jobId) await ctx.client.waitForJob(record.jobId, waitOptions(ctx));
}

/** Until no job of the snapshot runs (deletes and reverts are refused meanwhile), or it is gone. */
function waitUntilSettled(ctx: OperationContext, zoneUuid: string, id: string) {
  return pollUntil(
    `VM snapshot ${id} to be Ready`,
    () => getVmSnapshot(ctx, zoneUuid, id),
    (s) => s === undefined || (s.status !== "Creating" && s.status !== "Reverting"),
    waitOptions(ctx),
  );
}

/** A point-in-time image of an instance's disks (and memory), which the instance can be reverted to. */
export const vmSnapshotDeclaration = defineResource({
  type: "VmSnapshot",
  description:
    "A point-in-time snapshot of an instance's disks, and optionally its memory. Change `revertTrigger` to " +
    "revert the instance to it.",
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
  // The record names no instance (and no list filters by one).
  unreadable: ["instanceUuid", "snapshotMemory"],
  replaceOn: ["instanceUuid", "name", "description", "snapshotMemory", "zoneUuid"],
  updates: [
    {
      fields: ["revertTrigger"],
      via: "revertToVmSnapshot (job awaited)",
      apply: async (ctx, id, news) => {
        // Removing the trigger reverts nothing: only a (new) value asks for a revert.
        if (news.revertTrigger === undefined) return;
        await waitUntilSettled(ctx, news.zoneUuid!, id);
        ctx.progress(`reverting the instance ${news.instanceUuid} to VM snapshot ${id}`);
        // After an ambiguous failure: Reverting shows the revert took effect (a second one is refused then);
        // one already finished cannot be told apart, and reverting again does no harm.
        const verify = appliedWhen(
          () => getVmSnapshot(ctx, news.zoneUuid!, id),
          (s) => s.status === "Reverting",
        );
        await awaitJob(ctx, await ctx.client.vmSnapshot.revert({ uuid: id }, { verify }));
        await waitUntilSettled(ctx, news.zoneUuid!, id);
      },
    },
  ],
  defaultTimeouts: { create: minutes(20), update: minutes(20), delete: minutes(10) },
  identity: {
    ownerTag: "VMSnapshot",
    scope: (inputs) => `${inputs.zoneUuid!}/${inputs.name}`,
    candidates: (ctx, inputs) => ctx.client.vmSnapshot.list({ zoneUuid: inputs.zoneUuid! }),
    matches: sameName,
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
  awaitReady: async (ctx, id, state) => {
    // The listed record carries the create's jobId too (the create's answer may have been lost).
    const snapshot = await getVmSnapshot(ctx, state.zoneUuid!, id);
    if (snapshot) await awaitJob(ctx, snapshot);
    const settled = await waitUntilSettled(ctx, state.zoneUuid!, id);
    if (!settled) throw new Error(`VM snapshot ${id} disappeared while it was being taken`);
  },
  read: async (ctx, id, state) => {
    const snapshot = await getVmSnapshot(ctx, state.zoneUuid!, id);
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
  delete: async (ctx, id, state) => {
    const zoneUuid = state.zoneUuid!;
    if (!(await getVmSnapshot(ctx, zoneUuid, id))) return;
    await waitUntilSettled(ctx, zoneUuid, id);
    await ctx.client.vmSnapshot.delete({ uuid: id });
    await waitForGone(
      { awaited: `VM snapshot ${id} to be deleted`, poll: () => getVmSnapshot(ctx, zoneUuid, id) },
      waitOptions(ctx),
    );
  },
});

/** A snapshot of an instance, which the instance can be reverted to (`revertTrigger`). */
export class VmSnapshot extends restcloudResource(vmSnapshotDeclaration) {}
