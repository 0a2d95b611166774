// Makes the package resolvable by its own name inside the repository: the examples, the e2e test
// programs and the dynamic-provider processes they start `require("pulumi-restcloud")` exactly as a
// user's program does, and resolve to this checkout (node_modules/pulumi-restcloud -> ..).
const fs = require("node:fs");
const path = require("node:path");

const link = path.join(__dirname, "..", "node_modules", "pulumi-restcloud");
fs.rmSync(link, { force: true, recursive: false });
fs.symlinkSync("..", link, "dir");
