// Imported first by the provider processes' entry points: Node keeps the compiled code of loaded modules on disk (Node
// 22.1+; NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE=1), so each operation's process starts without recompiling. A
// no-op in the single executable, whose compiled code is built in: a code cache, or the plugin's startup snapshot,
// made while this module runs, where Node.js has not verified node:module and node:sea (so neither is imported).
import { startupSnapshot } from "node:v8";

if (!startupSnapshot.isBuildingSnapshot() && !process.getBuiltinModule("node:sea").isSea())
  (process.getBuiltinModule("node:module") as { enableCompileCache?: () => unknown }).enableCompileCache?.();
