// Which front end serves a program: the dynamic adapter (the default: no plugin to install) or the native plugin
// (`restcloud:mode native`, or RESTCLOUD_MODE=native).
import { pulumiSdk } from "./pulumi-sdk";

export type FrontEnd = "dynamic" | "native";

/** The configured mode; an error naming the setting when it is neither. */
export function configuredMode(): FrontEnd {
  let configured: string | undefined;
  try {
    configured = new (pulumiSdk().Config)("restcloud").get("mode");
  } catch {
    configured = undefined; // outside a Pulumi program
  }
  return modeOf(configured);
}

/** The mode a stack's `restcloud:mode` says, else RESTCLOUD_MODE, else dynamic; an error when it is neither. */
export function modeOf(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): FrontEnd {
  const text = (configured || env.RESTCLOUD_MODE || "dynamic").trim().toLowerCase();
  if (text !== "dynamic" && text !== "native")
    throw new Error(
      `restcloud:mode must be "dynamic" or "native", not "${text}" (pulumi config set restcloud:mode native)`,
    );
  return text;
}
