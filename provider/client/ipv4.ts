// IPv4 addresses and CIDR blocks, read one way by the client's input checks and the engine's validators. No leading
// zeros (010.0.0.1 is refused: some readers take it for octal); prefixes 0 to 32.

const octet = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ipv4Pattern = `${octet}(\\.${octet}){3}`;

/** An IPv4 address such as 10.0.0.1. */
export const IPV4_REGEX = new RegExp(`^${ipv4Pattern}$`);
/** An IPv4 CIDR block such as 10.1.0.0/16 (host bits allowed: 10.1.2.3/16). */
export const CIDR_REGEX = new RegExp(`^${ipv4Pattern}/(3[0-2]|[12]?\\d)$`);

/** A CIDR block's address and prefix as numbers, and its network address (the address without host bits). */
export interface ParsedCidr {
  address: number;
  network: number;
  prefix: number;
}

/** Parses `a.b.c.d/n` (surrounding spaces ignored); undefined when it is no CIDR block. */
export function parseCidr(text: string): ParsedCidr | undefined {
  const trimmed = text.trim();
  if (!CIDR_REGEX.test(trimmed)) return undefined;
  const [address, prefix] = trimmed.split("/");
  const value = address.split(".").reduce((sum, part) => sum * 256 + Number(part), 0);
  const size = 2 ** (32 - Number(prefix));
  return { address: value, network: value - (value % size), prefix: Number(prefix) };
}
