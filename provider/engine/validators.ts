/**
 * Shared zod validators for resource arguments. Each one fails with a reason a user understands,
 * and carries a description that flows into schema.json and the reference docs.
 */
import { z } from "zod";

function ipv4ToInt(address: string): number | undefined {
  const parts = address.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** Parses `a.b.c.d/n`; undefined when malformed. */
export function parseCidr(cidr: string): { network: number; prefix: number } | undefined {
  const match = /^([\d.]+)\/(\d{1,2})$/.exec(cidr.trim());
  if (!match) return undefined;
  const address = ipv4ToInt(match[1]);
  const prefix = Number(match[2]);
  if (address === undefined || prefix > 32) return undefined;
  const size = 2 ** (32 - prefix);
  return { network: address - (address % size), prefix };
}

/** True when `inner` lies inside `outer` (both valid CIDRs). */
export function cidrContains(outer: string, inner: string): boolean {
  const o = parseCidr(outer);
  const i = parseCidr(inner);
  if (!o || !i || i.prefix < o.prefix) return false;
  return i.network - (i.network % 2 ** (32 - o.prefix)) === o.network;
}

export const ipv4Address = z
  .string()
  .refine((v) => ipv4ToInt(v) !== undefined, { message: "must be an IPv4 address such as 203.0.113.10" });

/** An IPv4 CIDR block whose address is the network address (10.1.0.0/16, not 10.1.2.3/16). */
export const cidrBlock = z.string().superRefine((value, ctx) => {
  const parsed = parseCidr(value);
  if (!parsed) {
    ctx.addIssue({ code: "custom", message: `"${value}" is not an IPv4 CIDR block such as 10.1.0.0/16` });
    return;
  }
  if (ipv4ToInt(value.split("/")[0]) !== parsed.network) {
    ctx.addIssue({ code: "custom", message: `"${value}" has host bits set; the network address is required` });
  }
});

/** A comma-separated list of CIDR blocks, e.g. "0.0.0.0/0" or "10.0.0.0/8,192.168.0.0/16". */
export const cidrList = z.string().superRefine((value, ctx) => {
  for (const item of value.split(",").map((s) => s.trim())) {
    if (!parseCidr(item)) ctx.addIssue({ code: "custom", message: `"${item}" is not an IPv4 CIDR block` });
  }
});

/** A TCP/UDP port, 1 to 65535. Sent to the API as a string, as the spec says. */
export const port = z
  .number({ error: "must be a port number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

/** A record identifier as the API issues them. */
export const uuid = z.string().min(1, "must not be empty");

/** A resource name: what the API and its portal display. */
export const resourceName = z
  .string()
  .min(1, "must not be empty")
  .max(63, "must be at most 63 characters")
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    "must start with a letter or digit and hold only letters, digits, '.', '_', '-'",
  );

export const protocol = z.enum(["TCP", "UDP", "ICMP"], { error: "must be one of TCP, UDP, ICMP" });

/**
 * Cross-field rule for rules with a port range: ports are required for TCP/UDP, absent for ICMP,
 * and start <= end.
 */
export function checkPortRange(
  value: { protocol?: string; startPort?: number; endPort?: number },
  ctx: z.RefinementCtx,
): void {
  if (value.protocol === "ICMP") {
    if (value.startPort !== undefined)
      ctx.addIssue({ code: "custom", path: ["startPort"], message: "must not be set for ICMP" });
    return;
  }
  if (value.startPort === undefined && value.protocol !== undefined) {
    ctx.addIssue({ code: "custom", path: ["startPort"], message: `is required for ${value.protocol}` });
  }
  if (value.startPort !== undefined && value.endPort !== undefined && value.endPort < value.startPort) {
    ctx.addIssue({
      code: "custom",
      path: ["endPort"],
      message: `must be greater than or equal to startPort (${value.startPort})`,
    });
  }
}
