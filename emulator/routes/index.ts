/** Every API area of the emulator. Each routes file exports `register`; add a line per area. */
import type { AreaRegistrar } from "../core";

export const AREAS: ReadonlyArray<{ name: string; register: AreaRegistrar }> = [];
