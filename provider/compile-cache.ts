// Imported first by the provider processes' entry points: Node keeps the compiled code of loaded modules on disk (Node
// 22.1+; NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE=1), so each operation's process starts without recompiling. A
// no-op on older Node and in the single executable, whose code cache is built in.
import * as nodeModule from "node:module";
import { isSea } from "node:sea";

if (!isSea()) (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
