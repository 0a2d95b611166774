// `restcloud discover --delete`: unheld records deleted through their declarations' `delete` ("gone is gone"),
// referrers first. A record is not attempted while one referring to it is left; an instance's original data disk (kept
// by the service when the instance is expunged) goes right after it.
import type { RestCloudClient } from "../client";
import type { OperationContext, ResourceDeclaration } from "../engine/declaration";
import { deleteWithWaits } from "../engine/waits";
import type { Planned } from "./codegen";
import type { AccountRecord } from "./inventory";

export interface DeleteOutcome {
  planned: Planned;
  /** Set when this outcome is of a record that went with `planned` (its data disk), not of `planned`. */
  companion?: AccountRecord;
  outcome: "deleted" | "failed" | "not attempted";
  /** Why it failed, or was not attempted. */
  reason?: string;
  ms: number;
}

export interface DeleteOptions {
  client: RestCloudClient;
  zoneUuid?: string;
  /** The declarations by type (for the companions' kinds). */
  declarations: ReadonlyMap<string, ResourceDeclaration>;
  /** Called as each record's outcome is known. */
  onOutcome?(outcome: DeleteOutcome): void;
  /** Progress of long waits. */
  onProgress?(planned: Planned, message: string): void;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Deletes the planned records, dependents first; answers each outcome, in the order they ended. */
export async function deleteRecords(plan: readonly Planned[], options: DeleteOptions): Promise<DeleteOutcome[]> {
  const dependents = plan.map(() => [] as number[]);
  plan.forEach((p, i) => p.dependsOn.forEach((t) => dependents[t]!.push(i)));
  const outcomes = new Map<number, DeleteOutcome>();
  const ordered: DeleteOutcome[] = [];
  const settle = (i: number, outcome: DeleteOutcome) => {
    outcomes.set(i, outcome);
    ordered.push(outcome);
    options.onOutcome?.(outcome);
  };
  const remaining = new Set(plan.map((_, i) => i));
  while (remaining.size > 0) {
    const ready = [...remaining].filter((i) => dependents[i]!.every((d) => outcomes.has(d)));
    // Dependencies always form layers; a cycle would leave nothing ready: take the rest one by one.
    const layer = ready.length > 0 ? ready : [[...remaining][0]!];
    await Promise.all(
      layer.map(async (i) => {
        remaining.delete(i);
        const p = plan[i]!;
        const blocking = dependents[i]!.filter((d) => outcomes.get(d)?.outcome !== "deleted");
        if (blocking.length > 0) {
          const names = blocking.map((d) => `${plan[d]!.unheld.record.kind} ${plan[d]!.logicalName}`);
          settle(i, {
            planned: p,
            outcome: "not attempted",
            reason: `${names.join(", ")}, which refer${names.length > 1 ? "" : "s"} to it, ${names.length > 1 ? "are" : "is"} still there`,
            ms: 0,
          });
          return;
        }
        const started = Date.now();
        const ctx: OperationContext = {
          client: options.client,
          settings: { zoneUuid: options.zoneUuid },
          timeoutMs: p.declaration.defaultTimeouts.delete,
          progress: (text) => options.onProgress?.(p, text),
          declarations: [...options.declarations.values()],
        };
        try {
          const state = { ...p.unheld.outputs, ...p.unheld.inputs };
          await deleteWithWaits(p.declaration, ctx, p.unheld.record.id, state);
          settle(i, { planned: p, outcome: "deleted", ms: Date.now() - started });
        } catch (error) {
          settle(i, { planned: p, outcome: "failed", reason: message(error), ms: Date.now() - started });
          return;
        }
        for (const companion of p.unheld.companions) {
          const declaration = options.declarations.get(companion.kind);
          if (!declaration) continue;
          const since = Date.now();
          const report = (outcome: DeleteOutcome["outcome"], reason?: string) => {
            const done: DeleteOutcome = { planned: p, companion, outcome, ms: Date.now() - since };
            if (reason !== undefined) done.reason = reason;
            ordered.push(done);
            options.onOutcome?.(done);
          };
          try {
            const state = { zoneUuid: companion.zoneUuid };
            await deleteWithWaits(
              declaration,
              { ...ctx, timeoutMs: declaration.defaultTimeouts.delete },
              companion.id,
              state,
            );
            report("deleted");
          } catch (error) {
            report("failed", message(error));
          }
        }
      }),
    );
  }
  return ordered;
}
