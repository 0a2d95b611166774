/**
 * Imported first by the provider processes' entry points (the native plugin, the dynamic runtime):
 * Node.js keeps the compiled code of the modules they load on disk (Node 22.1+; NODE_COMPILE_CACHE
 * picks the directory, NODE_DISABLE_COMPILE_CACHE=1 turns it off), so that each `pulumi` operation's
 * provider process starts without compiling them again. A no-op on older Node.js.
 */
import * as nodeModule from "node:module";

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
