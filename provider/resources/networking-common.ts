// What the networking resources share: deletes tolerant of a record already gone, port-forwarding arguments (a public
// IP's rule and a security group's take the same), the load-balancing algorithm, CIDR lists compared as the API
// normalizes.
import { z } from "zod";
import { withDefaultText } from "../engine/defaults";
import type { OperationContext } from "../engine/declaration";
import { port } from "../engine/validators";
import { ApiError, isNotFound } from "../client/errors";
import { gone, type RecordLookup } from "../engine/waits";
import { byUuid } from "./common";

/**
 * A delete that then waits until the record's lookup no longer sees it. Nothing is sent when it is
 * already gone; a 404 from the delete (gone meanwhile), or an error `alreadyGone` recognizes, counts
 * as done.
 */
export async function* removeUntilGone<R>(
  ctx: OperationContext,
  id: string,
  state: Record<string, unknown>,
  steps: {
    lookup: RecordLookup<R>;
    remove: () => Promise<unknown>;
    alreadyGone?: (error: ApiError) => boolean;
  },
) {
  if ((await steps.lookup.find(ctx, id, state)) === undefined) return;
  try {
    await steps.remove();
  } catch (error) {
    const absent = isNotFound(error) || (error instanceof ApiError && (steps.alreadyGone?.(error) ?? false));
    if (!absent) throw error;
  }
  yield gone();
}

/**
 * The zone of a network or tier (the list calls of rules and load balancers take a zone, and their
 * create calls do not), else the provider's default zone.
 */
export async function zoneOfNetwork(ctx: OperationContext, networkUuid: string): Promise<string | undefined> {
  return (await ctx.client.network.get({ uuid: networkUuid }))?.zoneUuid ?? ctx.settings.zoneUuid;
}

/**
 * The public address with this uuid in its zone, or undefined when it is gone. The list takes no uuid
 * input: the address is picked on our side (`where`), and only it is parsed.
 */
export async function zoneAddress(ctx: OperationContext, zoneUuid: string, ipAddressUuid: string) {
  const addresses = await ctx.client.ipAddress.list({ zoneUuid }, { where: { field: "uuid", value: ipAddressUuid } });
  return byUuid(addresses, ipAddressUuid);
}

/**
 * The zone of a public IP address (a firewall rule's list call takes a zone, its create does not):
 * the provider's default zone if the address is there, else the zone whose list holds it.
 */
export async function zoneOfAddress(ctx: OperationContext, ipAddressUuid: string): Promise<string | undefined> {
  const holds = async (zoneUuid: string) => (await zoneAddress(ctx, zoneUuid, ipAddressUuid)) !== undefined;
  const preferred = ctx.settings.zoneUuid;
  if (preferred !== undefined && (await holds(preferred))) return preferred;
  for (const zone of await ctx.client.costEstimate.zones()) {
    if (zone.uuid !== undefined && zone.uuid !== preferred && (await holds(zone.uuid))) return zone.uuid;
  }
  return preferred;
}

/**
 * For an import: the network through which a rule on a public address reaches an instance (the
 * address's network, or a tier of the address's VPC), as far as the records tell: the instance's one
 * network that can. Undefined when they do not tell (the tiers' records do not name their VPC, or
 * several networks of the instance could).
 */
export async function networkReaching(
  ctx: OperationContext,
  zoneUuid: string,
  ipAddressUuid: string,
  instanceUuid: string,
): Promise<string | undefined> {
  const address = await zoneAddress(ctx, zoneUuid, ipAddressUuid);
  const nics = (await ctx.client.instance.networks({ uuid: instanceUuid })).filter((nic) => nic.uuid);
  const only = (candidates: readonly { uuid?: string }[]) => (candidates.length === 1 ? candidates[0].uuid : undefined);
  if (address?.networkUuid) {
    const direct = only(nics.filter((nic) => nic.uuid === address.networkUuid));
    if (direct) return direct;
    // A VPC's address: its networkUuid (or vpcUuid) is the VPC's, and the instance is on one of its tiers.
    const vpcUuid = address.vpcUuid ?? address.networkUuid;
    const tiers = new Set(
      (await ctx.client.network.list({ zoneUuid })).filter((n) => n.vpcUuid === vpcUuid).map((n) => n.uuid),
    );
    const tier = only(nics.filter((nic) => tiers.has(nic.uuid)));
    if (tier) return tier;
  }
  // An instance on one network can be reached through that one only.
  return only(nics);
}

/**
 * For an import: the network a load-balancer rule on a public address balances over, as far as the
 * records tell. An address of a network: that network. An address of a VPC: the rule names one of the
 * VPC's tiers, and no record (nor any call of the API) shows which, so only a VPC of one tier tells it.
 * Undefined otherwise.
 */
export async function networkOfAddress(
  ctx: OperationContext,
  zoneUuid: string,
  ipAddressUuid: string,
): Promise<string | undefined> {
  const address = await zoneAddress(ctx, zoneUuid, ipAddressUuid);
  if (!address?.networkUuid) return undefined;
  if (address.vpcUuid === undefined) {
    const network = await ctx.client.network.get({ uuid: address.networkUuid });
    if (network) return network.uuid;
  }
  // A VPC's address: its networkUuid (or vpcUuid) is the VPC's. Tiers name their VPC where the record carries it.
  const vpcUuid = address.vpcUuid ?? address.networkUuid;
  const tiers = (await ctx.client.network.list({ zoneUuid })).filter((n) => n.vpcUuid === vpcUuid);
  return tiers.length === 1 ? tiers[0].uuid : undefined;
}

/** A 409 answer: the state forbids the call (e.g. disabling static NAT that is not enabled). */
export const isConflict = (error: ApiError): boolean => error.status === 409;

/** The API's load-balancing algorithms. */
export const lbAlgorithm = z.enum(["source", "roundrobin", "leastconn"], {
  error: "must be one of source, roundrobin, leastconn",
});

/** The blocks of a comma-separated CIDR list, trimmed, in order. */
const blocks = (list: string): string[] => list.split(",").map((block) => block.trim());

/**
 * The live CIDR list as a drift value: the declared text when both name the same blocks (the API
 * drops the spaces after commas), else the live text.
 */
export function liveCidrList(live: string | undefined, declared: string | undefined): string | undefined {
  if (live === undefined || declared === undefined) return live;
  return blocks(live).join(",") === blocks(declared).join(",") ? declared : live;
}

/** Port-forwarding arguments: a public port range of an address to a private port range of an instance. */
export const forwardedPorts = {
  protocol: z.enum(["TCP", "UDP"], { error: "must be TCP or UDP" }).describe("TCP or UDP."),
  publicPort: port.describe("The first public port."),
  publicEndPort: withDefaultText(port.optional().describe("The last public port."), "publicPort (a single port)"),
  privatePort: port.describe("The first private port, on the instance."),
  privateEndPort: withDefaultText(
    port.optional().describe("The last private port. The private range is as long as the public one."),
    "privatePort",
  ),
};

/** Each range in order, and the private range as long as the public one. */
export function checkForwardedPorts(
  value: { publicPort?: number; publicEndPort?: number; privatePort?: number; privateEndPort?: number },
  ctx: z.RefinementCtx,
): void {
  const ports = [
    value.publicPort,
    value.publicEndPort ?? value.publicPort,
    value.privatePort,
    value.privateEndPort ?? value.privatePort,
  ];
  // Absent, or not known yet during a preview: nothing to compare.
  if (!ports.every((p): p is number => typeof p === "number")) return;
  const [publicPort, publicEnd, privatePort, privateEnd] = ports;
  if (publicEnd < publicPort) {
    ctx.addIssue({ code: "custom", path: ["publicEndPort"], message: `must not be below publicPort (${publicPort})` });
  } else if (privateEnd < privatePort) {
    ctx.addIssue({
      code: "custom",
      path: ["privateEndPort"],
      message: `must not be below privatePort (${privatePort})`,
    });
  } else if (publicEnd - publicPort !== privateEnd - privatePort) {
    ctx.addIssue({
      code: "custom",
      path: ["privateEndPort"],
      message: `the private range must be as long as the public one (${publicEnd - publicPort + 1} ports)`,
    });
  }
}

/** ICMP type and code apply to ICMP only (the API refuses them for TCP and UDP). */
export function checkIcmpFields(
  value: { protocol?: string; icmpType?: number; icmpCode?: number },
  ctx: z.RefinementCtx,
): void {
  // Only for a known TCP or UDP (during a preview the protocol may not be known yet).
  if (value.protocol !== "TCP" && value.protocol !== "UDP") return;
  for (const field of ["icmpType", "icmpCode"] as const) {
    if (value[field] !== undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: `does not apply to protocol ${value.protocol}` });
    }
  }
}
