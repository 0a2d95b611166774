/** Stacks sharing a parent, in the dynamic mode: see shared-parent.ts. */
import { APP_STACKS, printReports, runSharedParent, type SharedParentReport } from "./shared-parent";

jest.setTimeout(900_000);

const SEEDS = [1, 2];
const reports: SharedParentReport[] = [];
afterAll(() => printReports(reports));

test.each(SEEDS)(
  `dynamic mode, seed %i: ${APP_STACKS} stacks on one VPC and tier converge, share nothing, orphan nothing, destroy cleanly`,
  async (seed) => {
    const report = await runSharedParent("dynamic", {}, seed);
    reports.push(report);
    expect(report.ups.every((n) => n <= 2)).toBe(true);
    expect({ sharedIds: report.sharedIds, orphans: report.orphans, lost: report.lost }).toEqual({
      sharedIds: [],
      orphans: [],
      lost: [],
    });
    // The faults did fire on the shared parent's creates.
    expect(report.faults.acquireIpAddress ?? 0).toBeGreaterThan(0);
  },
);
