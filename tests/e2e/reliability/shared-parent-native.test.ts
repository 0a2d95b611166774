/** Stacks sharing a parent, in the native mode: see shared-parent.ts. */
import { NATIVE_MODE } from "../native/native-helpers";
import { APP_STACKS, expectConverged, printReports, runSharedParent, type SharedParentReport } from "./shared-parent";

jest.setTimeout(900_000);

const SEEDS = [1, 2];
const reports: SharedParentReport[] = [];
afterAll(() => printReports(reports));

test.each(SEEDS)(
  `native mode, seed %i: ${APP_STACKS} stacks on one VPC and tier converge, share nothing, orphan nothing, destroy cleanly`,
  async (seed) => {
    const report = await runSharedParent("native", { ...NATIVE_MODE }, seed);
    reports.push(report);
    expectConverged(report);
  },
);
