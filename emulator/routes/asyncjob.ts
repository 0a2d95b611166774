// `GET /restapi/asyncjob/resourceStatus?jobId=...`: a job of the caller's account. errorCode and errorMessage are ""
// until it fails: no answer of the emulator holds null (the spec gives every field one type).
import type { FastifyInstance } from "fastify";
import { notFound, scopeOf } from "../core";
import { readString } from "../http";
import type { DeferredWork } from "../jobs";

export function registerAsyncJob(app: FastifyInstance, work: DeferredWork): void {
  app.get(
    "/restapi/asyncjob/resourceStatus",
    { config: { operation: "resourceStatus", mutating: false } },
    async (request) => {
      const jobId = readString(request.query as Record<string, unknown>, "jobId", { required: true });
      const job = work.job(scopeOf(request).account.id, jobId);
      if (!job) throw notFound("job", jobId);
      return { ...job, errorCode: job.errorCode ?? "", errorMessage: job.errorMessage ?? "" };
    },
  );
}
