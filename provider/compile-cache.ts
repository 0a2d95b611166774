/**
 * Imported first by the provider processes' entry points (the native plugin, the dynamic runtime):
 * Node.js keeps the compiled code of the modules they load on disk (Node 22.1+; NODE_COMPILE_CACHE
 * picks the directory, NODE_DISABLE_COMPILE_CACHE=1 turns it off), so that each `pulumi` operation's
 * provider process starts without compiling them again. A no-op on older Node.js, and in the
 * release's single executable, which loads no module from disk (its code cache is built in).
 */
import * as nodeModule from "node:module";
import { isSea } from "node:sea";

if (!isSea()) (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
