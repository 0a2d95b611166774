// The dynamic provider process's heap, kept near what is live. Pulumi's runtime loads before ours (TypeScript's
// compiler among it), and V8 sizes the heap for it: loading ours then doubles the young generation (16 to 32 MiB),
// and the old generation's limit, set by a full collection before ours loaded, lets garbage pile up to about twice
// what is live. At 1,000 resources that headroom was most of the process's excess over the floor's (README "Tests",
// the benchmarks). These are V8's own settings: they change when it collects, never what runs, and hold for the
// stack's other dynamic providers too.
import * as v8 from "node:v8";
import * as vm from "node:vm";

// On import, before the rest of ours loads: the young generation keeps the size it has.
v8.setFlagsFromString("--semi-space-growth-factor=1");

/** Once ours has loaded: one full collection (35 ms), whose limit for the next is 1.3 times what is live then. */
export function collectAfterLoad(): void {
  v8.setFlagsFromString("--heap-growing-percent=30");
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}
