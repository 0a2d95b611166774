// What still uses a record whose delete the service refused (409 "in use"). Pulumi has deleted the stack's own users by
// then, so what is left is no resource of this stack; this names them, with their owner tags (ownership.ts), and says
// how to adopt or remove them.
import type { OperationContext } from "./declaration";
import { inventoryLists } from "./inventory";
import { nounOf } from "./declaration";
import { describeOwner, ownersOf } from "./ownership";

/** A record that names another as its parent. */
export interface Dependent {
  kind: string;
  uuid: string;
  name?: string;
  /** Its owner tag's value, when it has one. */
  owner?: string;
}

/** The records of a zone that hang on `uuid` (as their inventory facets list them), with their owners. */
export async function dependentsOf(ctx: OperationContext, uuid: string, zoneUuid: string): Promise<Dependent[]> {
  const lists = inventoryLists(ctx.client)(zoneUuid);
  const kinds = (ctx.declarations ?? []).filter((d) => d.inventory && !d.inventory.accountWide);
  const found = await Promise.all(
    kinds.map(async (d) => {
      const using = (await d.inventory!.list(lists)).filter((r) => r.parentId === uuid && r.id !== uuid);
      const owners = d.tagType && using.length > 0 ? await ownersOf(ctx.client, d.tagType) : new Map<string, string>();
      return using.map((record) => ({
        kind: nounOf(d),
        uuid: record.id,
        ...(record.name ? { name: record.name } : {}),
        ...(owners.has(record.id) ? { owner: owners.get(record.id)! } : {}),
      }));
    }),
  );
  return found.flat();
}

/** The sentences a refused delete adds: each record still using it, whose it is, and what to do. */
export function describeDependents(dependents: readonly Dependent[]): string {
  const lines = dependents.map(
    (d) =>
      `  - ${d.kind} ${d.name ? `${d.name} (${d.uuid})` : d.uuid}: ` +
      (d.owner ? `created by ${describeOwner(d.owner)}` : "no owner tag (made outside Pulumi, or before tags)"),
  );
  return (
    `Still using it, and held by no resource of this stack:\n${lines.join("\n")}\n` +
    "`restcloud discover` lists the records no stack holds and writes what adopts them (`pulumi import --file`); " +
    "`restcloud discover --delete` removes them; after a killed `pulumi up`, `restcloud recover` puts its records into the state."
  );
}
