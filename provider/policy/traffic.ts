// What the security policies read of the rules that let traffic in: which sources an ingress rule admits on which
// ports of its target (a public IP, a security group), and which public ports a forwarding rule sends to which
// private ones. A value not known at preview reads as UNKNOWN: a policy then judges what it can, and `pulumi up`'s
// stack analysis sees the rest.
import { numberOf, stringOf } from "../pricing/rule";
import { UNKNOWN } from "../wire";
import { argumentText, type StackResource } from "./stack-resources";

type Unknown = typeof UNKNOWN;

/** A port range, both ends included. */
export interface PortRange {
  readonly start: number;
  readonly end: number;
}

/** What a rule hangs on: its property's known value, and the resources that value came from. */
export interface Target {
  readonly property: string;
  readonly value?: string;
  readonly urns: readonly string[];
}

/** An ingress rule: its sources may reach its ports of its target. */
export interface IngressRule {
  readonly resource: StackResource;
  readonly target: Target;
  /** TCP, UDP or ICMP. */
  readonly protocol: string | Unknown;
  /** Undefined for ICMP (no ports). */
  readonly ports: PortRange | Unknown | undefined;
  /** The source CIDR blocks. */
  readonly sources: readonly string[] | Unknown;
}

/** A forwarding rule: its public ports of its target reach the same-length private range of an instance. */
export interface ForwardingRule {
  readonly resource: StackResource;
  readonly target: Target;
  readonly protocol: string | Unknown;
  readonly publicPorts: PortRange | Unknown;
  /** The first private port: public port p reaches privateStart + (p - publicPorts.start). */
  readonly privateStart: number | Unknown;
  /** What the traffic reaches, for messages: "instance web", "the members of its security group". */
  readonly reaches: string;
}

/**
 * The kinds that let traffic in, by kind: the property naming the target (rules with the same
 * target guard one another), and for a forwarding rule the ingress kind that guards it. A
 * forwarding rule takes no sources: the ingress rules of its target that cover its public ports
 * are what limit who reaches it.
 */
export const INGRESS_KINDS: Readonly<Record<string, { target: string }>> = {
  FirewallRule: { target: "ipAddressUuid" },
  SecurityGroupFirewallRule: { target: "securityGroupUuid" },
};
export const FORWARDING_KINDS: Readonly<Record<string, { target: string; guardedBy: string }>> = {
  PortForwardingRule: { target: "ipAddressUuid", guardedBy: "FirewallRule" },
  SecurityGroupPortForwardingRule: { target: "securityGroupUuid", guardedBy: "SecurityGroupFirewallRule" },
};

const targetOf = (r: StackResource, property: string): Target => {
  const value = stringOf(r.props, property);
  return {
    property,
    urns: r.propertyDependencies[property] ?? [],
    ...(typeof value === "string" && value !== UNKNOWN ? { value } : {}),
  };
};

/** Whether two rules hang on the same target: the same resource, or the same known uuid. */
export const sameTarget = (a: Target, b: Target): boolean =>
  a.urns.some((urn) => b.urns.includes(urn)) || (a.value !== undefined && a.value === b.value);

/** A range from its first port and its optional last one (the first when absent). */
function rangeOf(r: StackResource, first: string, last: string): PortRange | Unknown | undefined {
  const start = numberOf(r.props, first);
  const end = numberOf(r.props, last) ?? start;
  if (start === UNKNOWN || end === UNKNOWN) return UNKNOWN;
  return start === undefined || end === undefined ? undefined : { start, end };
}

export function ingressRuleOf(r: StackResource): IngressRule | undefined {
  const kind = r.kind && INGRESS_KINDS[r.kind];
  if (!kind) return undefined;
  const protocol = stringOf(r.props, "protocol") ?? "";
  const sources = argumentText(r.kind!, r.props, "cidrList");
  return {
    resource: r,
    target: targetOf(r, kind.target),
    protocol: protocol === UNKNOWN ? UNKNOWN : protocol.toUpperCase(),
    ports: protocol !== UNKNOWN && protocol.toUpperCase() === "ICMP" ? undefined : rangeOf(r, "startPort", "endPort"),
    sources:
      sources === UNKNOWN
        ? UNKNOWN
        : (sources ?? "")
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
  };
}

export function forwardingRuleOf(
  r: StackResource,
  byUrn: ReadonlyMap<string, StackResource>,
): ForwardingRule | undefined {
  const kind = r.kind && FORWARDING_KINDS[r.kind];
  if (!kind) return undefined;
  const publicPorts = rangeOf(r, "publicPort", "publicEndPort");
  const privateStart = numberOf(r.props, "privatePort");
  const protocol = stringOf(r.props, "protocol") ?? "";
  const instanceUrn = (r.propertyDependencies.instanceUuid ?? []).find((urn) => byUrn.has(urn));
  const instanceUuid = stringOf(r.props, "instanceUuid");
  const instance = instanceUrn ? byUrn.get(instanceUrn)!.name : instanceUuid === UNKNOWN ? undefined : instanceUuid;
  return {
    resource: r,
    target: targetOf(r, kind.target),
    protocol: protocol === UNKNOWN ? UNKNOWN : protocol.toUpperCase(),
    publicPorts: publicPorts ?? UNKNOWN,
    privateStart: privateStart ?? UNKNOWN,
    reaches:
      kind.target === "securityGroupUuid"
        ? "the members of its security group"
        : instance === undefined
          ? "an instance"
          : `instance ${instance}`,
  };
}

/** Whether an ingress rule admits traffic of the protocol on the port (what is not known counts as admitting). */
export function admits(rule: IngressRule, protocol: string | Unknown, port: number): boolean {
  const sameProtocol = rule.protocol === UNKNOWN || protocol === UNKNOWN || rule.protocol === protocol;
  if (!sameProtocol || rule.ports === undefined) return false;
  return rule.ports === UNKNOWN || (port >= rule.ports.start && port <= rule.ports.end);
}

/** "TCP 22", "TCP 8000-8010". */
export const trafficText = (protocol: string | Unknown, range: PortRange): string =>
  `${protocol === UNKNOWN ? "" : `${protocol} `}${range.start === range.end ? range.start : `${range.start}-${range.end}`}`;
