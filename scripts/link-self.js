// Makes the package resolvable by its own name inside the repository: the examples, the e2e test
// programs and the dynamic-provider processes they start `require("pulumi-restcloud")` exactly as a
// user's program does, and resolve to this checkout (node_modules/pulumi-restcloud -> ..).
//
// `npm run build` runs it (and so every script that builds: test, setup, demo, generate, pack): a
// program here needs the compiled package anyway. It is no install script: a project that installs
// the package (from its packed tarball) needs no such link, and the packed files do not hold it.
const fs = require("node:fs");
const path = require("node:path");

const modules = path.join(__dirname, "..", "node_modules");
const link = path.join(modules, "pulumi-restcloud");
const linked = () => {
  try {
    return fs.readlinkSync(link) === "..";
  } catch {
    return false;
  }
};
if (fs.existsSync(modules) && !linked()) {
  // A new link renamed over the old path: programs running meanwhile never find it missing.
  const temporary = `${link}.${process.pid}`;
  fs.symlinkSync("..", temporary, "dir");
  fs.renameSync(temporary, link);
}
