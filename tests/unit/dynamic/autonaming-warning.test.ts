/**
 * When a dynamic-mode program warns that the stack's `pulumi:autonaming` does not reach it
 * (provider/program/dynamic-resource.ts; the warning itself: tests/e2e/native/autonaming.test.ts):
 * when the setting could name its resources, not for another provider's entry alone.
 */
import { autonamingConcernsRestcloud } from "../../../provider/program/dynamic-resource";

test.each([
  [undefined, false],
  [{ mode: "default" }, false],
  [{ providers: { aws: { pattern: "${name}-${hex(4)}" } } }, false],
  [{ mode: "verbatim" }, true],
  [{ pattern: "${stack}-${name}" }, true],
  [{ mode: "default", providers: { restcloud: { mode: "disabled" } } }, true],
  [{ providers: { "pulumi-nodejs": { mode: "verbatim" } } }, true],
])("%j: %s", (setting, concerns) => {
  expect(autonamingConcernsRestcloud(setting === undefined ? undefined : JSON.stringify(setting))).toBe(concerns);
});
