/**
 * A release folder served over HTTP on loopback, as the GitHub release that schema.json's
 * `pluginDownloadURL` names, for the tests of Pulumi's automatic plugin acquisition. The engine is
 * pointed at it by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES; every other source (github://, https://) is
 * sent here too, to a path that answers 404, so that nothing goes online and any other download shows.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

export interface PluginServer {
  url: string;
  /** Every request's method and path, in order. */
  requests: string[];
  /** The environment that points the engine here and turns automatic acquisition on. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** The source our plugin's pluginDownloadURL makes (`github://<host>/<owner>/pulumi-<name>`). */
const OUR_SOURCE = "^github://api.github.com/restcloud/pulumi-restcloud$";

/** Serves `releaseDir`'s files at `/v<version>/<file>`, as a release tagged `v<version>`. */
export async function servePluginRelease(releaseDir: string, version: string): Promise<PluginServer> {
  const requests: string[] = [];
  const prefix = `/v${version}/`;
  const server = http.createServer((request, response) => {
    const url = request.url ?? "/";
    requests.push(`${request.method} ${url}`);
    const name = url.startsWith(prefix) ? decodeURIComponent(url.slice(prefix.length)) : "";
    const file = path.join(releaseDir, name);
    if (name === "" || name.includes("/") || !fs.existsSync(file)) {
      response.writeHead(404).end("not in this release");
      return;
    }
    response.writeHead(200, { "content-type": "application/gzip", "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Pairs `regexp=URL`, comma-separated; the engine puts the version in ${VERSION} and adds the tarball's name.
  const overrides = [`${OUR_SOURCE}=${url}/v\${VERSION}`, `^github://=${url}/elsewhere`, `^https://=${url}/elsewhere`];
  return {
    url,
    requests,
    env: {
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides.join(","),
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The plugins in a PULUMI_HOME's cache: its directories (`resource-restcloud-v0.1.0`), not its bookkeeping files. */
export function cachedPlugins(pulumiHome: string): string[] {
  const dir = path.join(pulumiHome, "plugins");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.endsWith(".partial"))
    .map((entry) => entry.name);
}
