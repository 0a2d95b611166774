// `restcloud.Provider` (`pulumi:providers:restcloud`): one program can hold two accounts or endpoints. Whatever it
// is given is served by the native plugin; unset settings fall back to RESTCLOUD_*.
import * as pulumi from "@pulumi/pulumi";
import { pluginOptions } from "../plugin-release";
import { PROVIDER_SETTINGS, type ProviderSettingValues } from "../settings";

/** The provider settings (settings.ts: each one's meaning, default and environment variable), as inputs. */
export type ProviderArgs = { [K in keyof ProviderSettingValues]?: pulumi.Input<ProviderSettingValues[K]> };

export class Provider extends pulumi.ProviderResource {
  /** Whether `obj` is a restcloud provider (across copies of this package). */
  static isRestCloudProvider(obj: unknown): obj is Provider {
    return (
      obj instanceof pulumi.ProviderResource && (obj as { __restcloudProvider?: boolean }).__restcloudProvider === true
    );
  }

  readonly __restcloudProvider = true;

  constructor(name: string, args: ProviderArgs = {}, opts: pulumi.ResourceOptions = {}) {
    const props: Record<string, unknown> = {};
    for (const setting of PROVIDER_SETTINGS) {
      const value = (args as Record<string, unknown>)[setting.key];
      if (value === undefined) continue;
      props[setting.key] = setting.secret ? pulumi.secret(value) : value;
    }
    super("restcloud", name, props, { ...pluginOptions(), ...opts });
  }
}
