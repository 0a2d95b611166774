// The asynchronous job status: not in the spec (it says "path and shape: not shown"); from api-notes.md.
import type { z } from "zod";
import { stringField, record, input, ref } from "../schema";
import { object, op } from "./define";

/**
 * The statuses of deployments that say PENDING / COMPLETE / FAILED (api-notes.md), as the caller reads
 * them: IN_PROGRESS / SUCCEEDED / FAILED, whichever the deployment answers.
 */
const JOB_STATUS_SPELLINGS: Readonly<Record<string, string>> = { PENDING: "IN_PROGRESS", COMPLETE: "SUCCEEDED" };
const jobStatus = stringField.transform((status) =>
  status === undefined ? undefined : (JOB_STATUS_SPELLINGS[status.toUpperCase()] ?? status),
);

export const asyncJobRecord = record({
  jobId: stringField,
  resourceId: stringField,
  resourceType: stringField,
  /** IN_PROGRESS, then SUCCEEDED or FAILED (PENDING and COMPLETE, which some deployments answer, read as those). */
  status: jobStatus,
  errorCode: stringField,
  errorMessage: stringField,
});
export type AsyncJob = z.output<typeof asyncJobRecord>;

export const asyncJobOperations = {
  status: op({
    name: "resourceStatus",
    method: "GET",
    path: "/restapi/asyncjob/resourceStatus",
    input: input({ jobId: ref }),
    response: object(asyncJobRecord),
    mutating: false,
    outsideSpec: true,
  }),
};
