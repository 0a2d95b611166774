/** The asynchronous job status: not in the spec (it says "path and shape: not shown"); from api-notes.md. */
import type { z } from "zod";
import { S, record, input, ref } from "../schema";
import { object, op } from "./define";

export const asyncJobRecord = record({
  jobId: S,
  resourceId: S,
  resourceType: S,
  /** IN_PROGRESS, then SUCCEEDED or FAILED (some deployments: PENDING, COMPLETE). */
  status: S,
  errorCode: S,
  errorMessage: S,
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
