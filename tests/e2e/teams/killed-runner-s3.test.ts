// Runner A's `pulumi up` killed on an S3-compatible backend, recovered by runner B: see killed-runner.ts.
import { killedRunnerSuite } from "./killed-runner";

jest.setTimeout(300_000);

killedRunnerSuite("dynamic", "s3");
