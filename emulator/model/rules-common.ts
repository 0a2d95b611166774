// What every rule-bearing area shares (firewall, egress, port forwarding, load balancing, security groups): protocols,
// port ranges, ICMP type/code, CIDR lists, and what a rule on a public IP requires of its network and IP.
import { parseCidr } from "../cidr";
import { badInput, conflict, missing, type AccountScope } from "../core";
import { STATIC_NATS } from "./collections";

export const PROTOCOLS = ["TCP", "UDP", "ICMP"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * The network a rule on a public IP balances or forwards to must reach the IP: the IP's own network,
 * or for a VPC's IP any tier of that VPC (400 naming networkUuid).
 */
export function assertReaches(
  network: { uuid: string; vpcUuid?: string },
  ip: { uuid: string; networkUuid: string; vpcUuid?: string },
): void {
  const reaches = ip.vpcUuid !== undefined ? network.vpcUuid === ip.vpcUuid : network.uuid === ip.networkUuid;
  if (!reaches) throw badInput("networkUuid", `network ${network.uuid} cannot reach IP address ${ip.uuid}`);
}

/** Static NAT maps every port of an IP to one instance: no port rule may sit beside it (409). */
export function assertNoStaticNat(scope: AccountScope, ipAddressUuid: string): void {
  if (scope.collection(STATIC_NATS)[ipAddressUuid]) {
    throw conflict(`IP address ${ipAddressUuid} has static NAT; disable it before adding port rules`);
  }
}

export interface PortRange {
  start: number;
  end: number;
}

/** A port given as a string (or number) of 1..65535. */
export function port(field: string, text: string): number {
  const n = /^\d{1,5}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(n >= 1 && n <= 65535)) throw badInput(field, `must be a port number from 1 to 65535 (got "${text}")`);
  return n;
}

/** A port range: `end` defaults to `start`; start <= end. */
export function portRange(startField: string, start: string, endField: string, end: string | undefined): PortRange {
  const range = { start: port(startField, start), end: end === undefined ? NaN : port(endField, end) };
  if (end === undefined) range.end = range.start;
  if (range.start > range.end) throw badInput(endField, `must not be below ${startField} (${range.start})`);
  return range;
}

export const rangesOverlap = (a: PortRange, b: PortRange): boolean => a.start <= b.end && b.start <= a.end;

/** The stored range of a record's start/end port fields. */
export const storedRange = <R, F extends keyof R>(record: R, startField: F, endField: F): PortRange => ({
  start: Number(record[startField]),
  end: Number(record[endField]),
});

/** A comma-separated list of CIDR blocks, normalized ("a, b" becomes "a,b"); default 0.0.0.0/0. */
export function cidrList(field: string, text: string | undefined): string {
  if (text === undefined) return "0.0.0.0/0";
  const blocks = text.split(",").map((c) => c.trim());
  for (const block of blocks) {
    if (!parseCidr(block)) throw badInput(field, `"${block}" is not a CIDR block such as 10.0.0.0/24`);
  }
  return blocks.join(",");
}

export interface TrafficInput {
  protocol: Protocol;
  startPort?: string;
  endPort?: string;
  icmpType?: string;
  icmpCode?: string;
}

/** The traffic fields of a FirewallRule or EgressRule record. Fields that do not apply are "". */
export interface Traffic {
  protocol: Protocol;
  startPort: string;
  endPort: string;
  icmpType: string;
  icmpCode: string;
}

function icmpValue(field: string, text: string | undefined): string {
  if (text === undefined) return "-1";
  const n = /^-?\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(n >= -1 && n <= 255)) throw badInput(field, `must be an ICMP value from 0 to 255, or -1 for all`);
  return String(n);
}

/**
 * TCP and UDP take ports (none at all: every port; endPort alone: 400), never ICMP fields; ICMP
 * takes icmpType and icmpCode (default -1, all), never ports.
 */
export function traffic(input: TrafficInput): Traffic {
  if (input.protocol === "ICMP") {
    for (const field of ["startPort", "endPort"] as const) {
      if (input[field] !== undefined) throw badInput(field, "does not apply to protocol ICMP");
    }
    return {
      protocol: "ICMP",
      startPort: "",
      endPort: "",
      icmpType: icmpValue("icmpType", input.icmpType),
      icmpCode: icmpValue("icmpCode", input.icmpCode),
    };
  }
  for (const field of ["icmpType", "icmpCode"] as const) {
    if (input[field] !== undefined) throw badInput(field, `does not apply to protocol ${input.protocol}`);
  }
  if (input.startPort === undefined && input.endPort !== undefined) throw missing("startPort");
  const range =
    input.startPort === undefined
      ? { start: 1, end: 65535 }
      : portRange("startPort", input.startPort, "endPort", input.endPort);
  return {
    protocol: input.protocol,
    startPort: String(range.start),
    endPort: String(range.end),
    icmpType: "",
    icmpCode: "",
  };
}

/** Whether two rules' traffic meets: same protocol and overlapping ports, or the same ICMP type and code. */
export function trafficOverlaps(a: Traffic, b: Omit<Traffic, "protocol"> & { protocol: string }): boolean {
  if (a.protocol !== b.protocol) return false;
  if (a.protocol === "ICMP") return a.icmpType === b.icmpType && a.icmpCode === b.icmpCode;
  const ports = { start: Number(a.startPort), end: Number(a.endPort) };
  return rangesOverlap(ports, storedRange(b, "startPort", "endPort"));
}
