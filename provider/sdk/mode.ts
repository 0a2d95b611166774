/**
 * Which front end serves a program's resources and functions: the dynamic adapter (the default: no
 * plugin to install) or the native plugin. One switch: `pulumi config set restcloud:mode native`
 * (or RESTCLOUD_MODE=native). A resource or call given an explicit `restcloud.Provider` is native.
 */
import * as pulumi from "@pulumi/pulumi";
import { Provider } from "./provider";

export type FrontEnd = "dynamic" | "native";

/** The configured mode; an error naming the setting when it is neither. */
export function configuredMode(): FrontEnd {
  let text: string | undefined;
  try {
    text = new pulumi.Config("restcloud").get("mode");
  } catch {
    text = undefined; // outside a Pulumi program
  }
  text = (text || process.env.RESTCLOUD_MODE || "dynamic").trim().toLowerCase();
  if (text !== "dynamic" && text !== "native")
    throw new Error(
      `restcloud:mode must be "dynamic" or "native", not "${text}" (pulumi config set restcloud:mode native)`,
    );
  return text;
}

/** The front end of a resource with these options. */
export function frontEndFor(opts: pulumi.CustomResourceOptions | undefined): FrontEnd {
  if (Provider.isRestCloudProvider(opts?.provider)) return "native";
  return configuredMode();
}
