// Where the native plugin is published for Pulumi to download: GitHub releases of restcloud/pulumi-restcloud, tag
// `v<version>`, assets `pulumi-resource-restcloud-v<version>-<os>-<arch>.tar.gz` (`npm run release`). schema.json
// carries it to the Python and Go SDKs; the TypeScript native registrations pass it.
import { packageVersion } from "./package-files";

/** The repository, as Go module paths spell it. */
export const REPOSITORY = "github.com/restcloud/pulumi-restcloud";

/** Pulumi's `github://<API host>/<owner>` source: the repository `pulumi-<plugin name>` of that owner. */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/restcloud";

/** The options that make the engine fetch this version of the plugin when it lacks it. */
export function pluginOptions(): { version: string; pluginDownloadURL: string } {
  return { version: packageVersion(), pluginDownloadURL: PLUGIN_DOWNLOAD_URL };
}
