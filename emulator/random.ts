// Identifiers and random draws. Under a seed each stream is a hash of (seed, stream, counter): deterministic, streams
// independent (a fault draw never shifts the next uuid), resumable from a persisted counter.
import { createHash, randomUUID } from "node:crypto";

export class RandomStream {
  constructor(
    private readonly seed: string | undefined,
    private readonly stream: string,
    /** Draws made so far: persisted for the uuid stream so a restarted emulator does not reissue ids. */
    public counter = 0,
  ) {}

  private nextBytes(): Buffer {
    const n = this.counter++;
    return createHash("sha256").update(`${this.seed}\u0000${this.stream}\u0000${n}`).digest();
  }

  /** A number in [0, 1). */
  next(): number {
    if (this.seed === undefined) return Math.random();
    return this.nextBytes().readUIntBE(0, 6) / 2 ** 48;
  }

  /** A UUID v4. */
  uuid(): string {
    if (this.seed === undefined) return randomUUID();
    const bytes = this.nextBytes().subarray(0, 16);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = bytes.toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
