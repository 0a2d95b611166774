// The security policies on traffic: sensitive ports (SSH, RDP, databases) open to every address, and forwarded
// ports that no firewall rule guards. A forwarding rule takes no sources of its own (the API has no field for
// them): the firewall rules of its address (or its security group) that cover its public ports limit who reaches
// it, and a forwarded port that none of the stack's covers is counted as open to every address.
import type { PolicyConfigSchema, StackValidationPolicy } from "@pulumi/policy";
import { cidrContains, parseCidr } from "../engine/validators";
import { UNKNOWN } from "../wire";
import { stackResources, type StackResource, type Violation } from "./stack-resources";
import {
  admits,
  FORWARDING_KINDS,
  forwardingRuleOf,
  ingressRuleOf,
  trafficText,
  sameTarget,
  type ForwardingRule,
  type IngressRule,
  type PortRange,
  type Target,
} from "./traffic";

/** The ports checked when the config names none: SSH, RDP and the common databases and caches. */
export const SENSITIVE_PORTS: Readonly<Record<number, string>> = {
  22: "SSH",
  3389: "RDP",
  1433: "SQL Server",
  1521: "Oracle",
  3306: "MySQL",
  5432: "PostgreSQL",
  6379: "Redis",
  9042: "Cassandra",
  9200: "Elasticsearch",
  11211: "Memcached",
  27017: "MongoDB",
};

const DEFAULT_PORTS = Object.keys(SENSITIVE_PORTS).map(Number);

export interface SensitivePortConfig {
  /** The ports no rule may open to every address. */
  readonly ports?: readonly number[];
  /** When set, the only sources a sensitive port may be opened to (each source within one of these). */
  readonly allowedSources?: readonly string[];
}

const portsSchema: PolicyConfigSchema["properties"][string] = {
  type: "array",
  items: { type: "integer", minimum: 1, maximum: 65535 },
  description: "The ports no rule may open to every address (default: SSH, RDP and common database ports).",
  default: DEFAULT_PORTS,
};

const portName = (port: number): string =>
  SENSITIVE_PORTS[port] ? `${SENSITIVE_PORTS[port]} (${port})` : `port ${port}`;
const portsIn = (ports: readonly number[], range: PortRange): number[] =>
  ports.filter((p) => p >= range.start && p <= range.end);

/** The sources a sensitive port must not be open to: any address (a /0 block), or one outside allowedSources. */
function forbiddenSources(sources: readonly string[], allowed: readonly string[]): string[] {
  return sources.filter((source) => {
    const parsed = parseCidr(source);
    if (!parsed) return false;
    return parsed.prefix === 0 || (allowed.length > 0 && !allowed.some((a) => cidrContains(a, source)));
  });
}

/** The stack's ingress and forwarding rules, the guards of each forwarding rule, and how messages name a target. */
function readRules(resources: readonly StackResource[]) {
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  const ingress = resources.flatMap((r) => ingressRuleOf(r) ?? []);
  const forwarding = resources.flatMap((r) => forwardingRuleOf(r, byUrn) ?? []);
  /** The ingress rules that guard a forwarding rule: of its kind's guard, on the same target. */
  const guardsOf = (f: ForwardingRule): IngressRule[] =>
    ingress.filter(
      (g) => g.resource.kind === FORWARDING_KINDS[f.resource.kind!]!.guardedBy && sameTarget(g.target, f.target),
    );
  /** The target as a message names it: "PublicIpAddress ip", else its uuid. */
  const targetName = (t: Target): string => {
    const r = t.urns.map((urn) => byUrn.get(urn)).find((found) => found !== undefined);
    if (r) return `${r.kind ?? r.type} ${r.name}`;
    return t.value === undefined
      ? `its ${t.property}`
      : `${t.property === "securityGroupUuid" ? "security group" : "address"} ${t.value}`;
  };
  return { ingress, forwarding, guardsOf, targetName };
}

function openIngress(rule: IngressRule, ports: readonly number[], allowed: readonly string[]): Violation[] {
  if (rule.ports === undefined || rule.ports === UNKNOWN || rule.sources === UNKNOWN) return [];
  const open = portsIn(ports, rule.ports);
  const forbidden = forbiddenSources(rule.sources, allowed);
  if (open.length === 0 || forbidden.length === 0) return [];
  const outside = allowed.length > 0 ? `, outside allowedSources (${allowed.join(", ")})` : "";
  const r = rule.resource;
  return [
    {
      message:
        `${r.kind} ${r.name} opens ${open.map(portName).join(", ")} to ${forbidden.join(", ")}${outside}: ` +
        "limit cidrList to the addresses that need it",
      urn: r.urn,
    },
  ];
}

function openForwarding(
  f: ForwardingRule,
  guards: readonly IngressRule[],
  ports: readonly number[],
  allowed: readonly string[],
): Violation[] {
  if (f.publicPorts === UNKNOWN || f.privateStart === UNKNOWN) return [];
  const { start, end } = f.publicPorts;
  const privateStart = f.privateStart;
  const exposures = portsIn(ports, { start: privateStart, end: privateStart + end - start }).flatMap((port) => {
    const publicPort = start + port - privateStart;
    const covering = guards.filter((g) => admits(g, f.protocol, publicPort));
    const from = `${portName(port)} of ${f.reaches}${publicPort === port ? "" : ` from public port ${publicPort}`}`;
    if (covering.length === 0)
      return [`${from}, open to every address: no ${guardKind(f)} covers public port ${publicPort}`];
    return covering.flatMap((g) => {
      const forbidden = g.sources === UNKNOWN ? [] : forbiddenSources(g.sources, allowed);
      return forbidden.length === 0
        ? []
        : [`${from}, open to ${forbidden.join(", ")} by ${g.resource.kind} ${g.resource.name}`];
    });
  });
  const r = f.resource;
  return exposures.length === 0
    ? []
    : [
        {
          message:
            `${r.kind} ${r.name} forwards ${exposures.join("; ")}: ` +
            `let a ${guardKind(f)} on the public port admit only the addresses that need it`,
          urn: r.urn,
        },
      ];
}

const guardKind = (f: ForwardingRule): string => FORWARDING_KINDS[f.resource.kind!]!.guardedBy;

/** Sensitive ports open to every address (or beyond allowedSources), on ingress and forwarding rules. */
export function sensitivePortViolations(resources: readonly StackResource[], config: SensitivePortConfig): Violation[] {
  const ports = config.ports ?? DEFAULT_PORTS;
  const allowed = config.allowedSources ?? [];
  const rules = readRules(resources);
  return [
    ...rules.ingress.flatMap((rule) => openIngress(rule, ports, allowed)),
    ...rules.forwarding.flatMap((f) => openForwarding(f, rules.guardsOf(f), ports, allowed)),
  ];
}

/** The public ports of a range that no guard admits, as ranges. */
function uncoveredRanges(f: ForwardingRule, range: PortRange, guards: readonly IngressRule[]): PortRange[] {
  const ranges: PortRange[] = [];
  for (let port = range.start; port <= range.end; port++) {
    if (guards.some((g) => admits(g, f.protocol, port))) continue;
    const last = ranges[ranges.length - 1];
    if (last && last.end === port - 1) ranges[ranges.length - 1] = { start: last.start, end: port };
    else ranges.push({ start: port, end: port });
  }
  return ranges;
}

/** Forwarding rules whose public ports (some or all) no ingress rule on the same target covers. */
export function unguardedForwardingViolations(resources: readonly StackResource[]): Violation[] {
  const rules = readRules(resources);
  return rules.forwarding.flatMap((f) => {
    const guards = rules.guardsOf(f);
    const r = f.resource;
    const on = rules.targetName(f.target);
    const advice = `add a ${guardKind(f)} with the sources that may reach it`;
    if (f.publicPorts === UNKNOWN)
      return guards.length > 0
        ? []
        : [
            {
              message: `${r.kind} ${r.name} forwards ${on} to ${f.reaches}, and no ${guardKind(f)} is on it: ${advice}`,
              urn: r.urn,
            },
          ];
    const uncovered = uncoveredRanges(f, f.publicPorts, guards);
    if (uncovered.length === 0) return [];
    const what = uncovered.map((range) => trafficText(f.protocol, range)).join(", ");
    return [
      {
        message:
          `${r.kind} ${r.name} forwards ${trafficText(f.protocol, f.publicPorts)} of ${on} to ${f.reaches}, ` +
          `and no ${guardKind(f)} on it covers ${what}: ${advice}`,
        urn: r.urn,
      },
    ];
  });
}

export const sensitivePortPolicy: StackValidationPolicy = {
  name: "no-sensitive-port-open-to-world",
  description:
    "No firewall, security-group or port-forwarding rule opens SSH, RDP or a database port to every address (0.0.0.0/0), or beyond allowedSources when set.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      ports: portsSchema,
      allowedSources: {
        type: "array",
        items: { type: "string" },
        description:
          "When set, the only CIDR blocks a sensitive port may be opened to: every source must lie within one of them.",
      },
    },
  },
  validateStack: (args, report) => {
    for (const v of sensitivePortViolations(stackResources(args.resources), args.getConfig<SensitivePortConfig>()))
      report(v.message, v.urn);
  },
};

export const unguardedForwardingPolicy: StackValidationPolicy = {
  name: "port-forwarding-without-firewall-rule",
  description:
    "Every port a port-forwarding rule forwards to an instance is covered by a firewall rule on the same address (for a security group's, one of the group's firewall rules), which says who may reach it.",
  enforcementLevel: "mandatory",
  validateStack: (args, report) => {
    for (const v of unguardedForwardingViolations(stackResources(args.resources))) report(v.message, v.urn);
  },
};
