// IPv4 addresses and CIDR blocks as integers: parsing, containment, overlap.

export interface Block {
  /** The network address as an unsigned 32-bit integer. */
  network: number;
  prefix: number;
}

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The address as an unsigned integer, or undefined when it is not a dotted-quad IPv4 address. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => OCTET.test(p))) return undefined;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

export function formatIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

export function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** `a.b.c.d/n` with host bits zero, or undefined. */
export function parseCidr(text: string): Block | undefined {
  const match = /^([\d.]+)\/(\d{1,2})$/.exec(text);
  if (!match) return undefined;
  const address = parseIpv4(match[1]);
  const prefix = Number(match[2]);
  if (address === undefined || prefix > 32) return undefined;
  if ((address & ~maskOf(prefix)) >>> 0 !== 0) return undefined;
  return { network: address, prefix };
}

export function formatCidr(block: Block): string {
  return `${formatIpv4(block.network)}/${block.prefix}`;
}

export function size(block: Block): number {
  return 2 ** (32 - block.prefix);
}

export function containsAddress(block: Block, address: number): boolean {
  return (address & maskOf(block.prefix)) >>> 0 === block.network;
}

/** Whether `inner` lies wholly inside `outer`. */
export function containsBlock(outer: Block, inner: Block): boolean {
  return inner.prefix >= outer.prefix && containsAddress(outer, inner.network);
}

export function overlaps(a: Block, b: Block): boolean {
  return containsBlock(a, b) || containsBlock(b, a);
}

/** The block of a gateway address and a dotted netmask (`10.0.1.1` + `255.255.255.0` = 10.0.1.0/24), or undefined. */
export function blockOfGateway(gateway: string, netmask: string): Block | undefined {
  const address = parseIpv4(gateway);
  const mask = parseIpv4(netmask);
  if (address === undefined || mask === undefined) return undefined;
  const prefix = 32 - Math.log2(2 ** 32 - mask);
  if (!Number.isInteger(prefix) || maskOf(prefix) !== mask) return undefined;
  return { network: (address & mask) >>> 0, prefix };
}

/** The RFC 1918 private ranges. */
export const PRIVATE_BLOCKS: readonly Block[] = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"].map(
  (c) => parseCidr(c) as Block,
);

export function isPrivate(block: Block): boolean {
  return PRIVATE_BLOCKS.some((p) => containsBlock(p, block));
}
