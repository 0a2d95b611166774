/**
 * What still uses a record whose delete the service refused (409 "in use"): by the time Pulumi
 * deletes a parent, it has deleted every resource of the stack that used it, so whatever is left is
 * no resource of this stack's (a record a killed `pulumi up` never recorded, one made by hand, or
 * another stack's). The service's refusal counts them; this names them, with whose their owner tag
 * says they are (ownership.ts), and says how to adopt or remove them.
 */
import type { OperationContext } from "./declaration";
import { describeOwner, ownersOf, type OwnerTagType } from "./ownership";

/** A record that names another as its parent. */
export interface Dependent {
  kind: string;
  uuid: string;
  name?: string;
  /** Its owner tag's value, when it has one. */
  owner?: string;
}

/** The fields by which records name what they hang on (a network, a VPC, an address). */
const PARENT_FIELDS = ["networkUuid", "transNetworkUuid", "vpcUuid", "ipAddressUuid", "publicIpUuid"] as const;

type Listed = { uuid?: string; name?: string } & Partial<Record<(typeof PARENT_FIELDS)[number], string>>;

/** The kinds that can use another record, as one zone's list of each gives them. */
const KINDS: readonly {
  kind: string;
  tag?: OwnerTagType;
  list(ctx: OperationContext, zoneUuid: string): Promise<Listed[]>;
}[] = [
  { kind: "instance", tag: "UserVm", list: (ctx, zoneUuid) => ctx.client.instance.list({ zoneUuid }) },
  { kind: "network", tag: "Network", list: (ctx, zoneUuid) => ctx.client.network.list({ zoneUuid }) },
  { kind: "public IP", tag: "PublicIpAddress", list: (ctx, zoneUuid) => ctx.client.ipAddress.list({ zoneUuid }) },
  { kind: "firewall rule", tag: "FirewallRule", list: (ctx, zoneUuid) => ctx.client.firewallRule.list({ zoneUuid }) },
  {
    kind: "port-forwarding rule",
    tag: "PortForwardingRule",
    list: (ctx, zoneUuid) => ctx.client.portForwardingRule.list({ zoneUuid }),
  },
  {
    kind: "load-balancer rule",
    tag: "LoadBalancer",
    list: (ctx, zoneUuid) => ctx.client.loadBalancerRule.list({ zoneUuid }),
  },
  { kind: "egress rule", list: (ctx, zoneUuid) => ctx.client.egressRule.list({ zoneUuid }) },
];

/** The records of a zone that name `uuid` as their network, VPC or address, with their owners. */
export async function dependentsOf(ctx: OperationContext, uuid: string, zoneUuid: string): Promise<Dependent[]> {
  const found = await Promise.all(
    KINDS.map(async ({ kind, tag, list }) => {
      const using = (await list(ctx, zoneUuid)).filter(
        (record) => record.uuid !== uuid && PARENT_FIELDS.some((field) => record[field] === uuid),
      );
      const owners = tag && using.length > 0 ? await ownersOf(ctx.client, tag) : new Map<string, string>();
      return using.map((record) => ({
        kind,
        uuid: record.uuid ?? "?",
        ...(record.name ? { name: record.name } : {}),
        ...(owners.has(record.uuid ?? "") ? { owner: owners.get(record.uuid!)! } : {}),
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
