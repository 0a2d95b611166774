// Address allocation: public addresses from one documentation /24 per zone, shared by all accounts as a real public
// pool is and persisted; private addresses from a network's own block.
import { containsAddress, formatIpv4, parseCidr, parseIpv4, size } from "./cidr";
import { badInput, conflict, notFound } from "./core";

/** The pool of the zone at catalog position `index`: 203.0.113.0/24, 198.51.100.0/24, then 192.0.2.0/24, 192.0.3.0/24... */
export function publicPoolOf(index: number): string {
  if (index === 0) return "203.0.113";
  if (index === 1) return "198.51.100";
  return `192.0.${2 + index - 2}`;
}

export class PublicIpPools {
  constructor(
    /** zoneUuid to allocated addresses (the store's persisted map). */
    private readonly allocated: () => Record<string, string[]>,
    /** The zone's position in the catalog, or -1 when the zone does not exist. */
    private readonly zoneIndex: (zoneUuid: string) => number,
  ) {}

  /** The lowest free address of the zone's pool (.1 is the zone router's, .0 and .255 are not hosts). */
  allocate(zoneUuid: string): string {
    const index = this.zoneIndex(zoneUuid);
    if (index < 0) throw notFound("zone", zoneUuid);
    const used = new Set((this.allocated()[zoneUuid] ??= []));
    const prefix = publicPoolOf(index);
    for (let host = 2; host <= 254; host++) {
      const address = `${prefix}.${host}`;
      if (!used.has(address)) {
        this.allocated()[zoneUuid].push(address);
        return address;
      }
    }
    throw conflict(`the public IP pool of zone ${zoneUuid} (${prefix}.0/24) is exhausted`);
  }

  release(address: string): void {
    const pools = this.allocated();
    for (const zone of Object.keys(pools)) pools[zone] = pools[zone].filter((a) => a !== address);
  }
}

/** The lowest free host address of `cidr`, skipping the network address, the gateway (.1) and the broadcast. */
export function allocatePrivateIp(cidr: string, used: ReadonlySet<string>): string {
  const block = parseCidr(cidr);
  if (!block) throw badInput("cidr", `${cidr} is not a CIDR block`);
  const last = block.network + size(block) - 2;
  for (let n = block.network + 2; n <= last; n++) {
    const address = formatIpv4(n);
    if (!used.has(address)) return address;
  }
  throw conflict(`no free address left in ${cidr}`);
}

/** Whether `address` is a host address of `cidr`. */
export function inBlock(cidr: string, address: string): boolean {
  const block = parseCidr(cidr);
  const n = parseIpv4(address);
  return block !== undefined && n !== undefined && containsAddress(block, n);
}
