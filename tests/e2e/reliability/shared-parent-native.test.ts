/** Stacks sharing a parent, in the native mode: see shared-parent.ts. */
import { NATIVE_MODE } from "../native/native-helpers";
import { APP_STACKS, expectConverged, printReports, runSharedParent, type SharedParentReport } from "./shared-parent";

jest.setTimeout(900_000);

/**
 * The seeds are dealt between the modes, one each (the dynamic mode takes seed 1): the engine that
 * claims records under a shared parent is the same in both. teams/shared-backend.test.ts runs a
 * third seed (dynamic, on PostgreSQL runners).
 */
const SEEDS = [2];
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
