// Starts the pack as Pulumi's Node.js policy host would (run-policy-pack <engine> <pack folder>), for a
// CLI whose Node.js host cannot: the engine's address is the last argument (flags may come before it),
// and @pulumi/policy reads package.json from the working directory, so it runs in this folder.
const engine = process.argv[process.argv.length - 1];
process.chdir(__dirname);
process.argv = [process.argv[0], "run-policy-pack", engine, __dirname];
require(require.resolve("@pulumi/pulumi/cmd/run-policy-pack", { paths: [__dirname] }));
