// The dynamic mode's runtime by a short name: every dynamic resource's `__provider` (provider/dynamic/shim.ts)
// requires "pulumi-restcloud/dynamic", and the engine writes that text into the state twice per resource.
module.exports = require("./dist/provider/dynamic/runtime");
