// Runner A's `pulumi up` killed on a PostgreSQL backend, recovered by runner B, in the native mode: see killed-runner.ts.
import { killedRunnerSuite } from "./killed-runner";

jest.setTimeout(300_000);

killedRunnerSuite("native");
