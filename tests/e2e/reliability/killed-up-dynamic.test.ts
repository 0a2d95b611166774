/**
 * A `pulumi up` killed with SIGKILL at five moments, in the dynamic mode (the other mode takes the five others); after each, the user's path:
 * `restcloud recover`, `pulumi up`, the audit, `pulumi destroy` (killed-up-scenario.ts says how).
 * The other mode's file runs beside this one.
 */
import { killedUpSuite } from "./killed-up-scenario";

jest.setTimeout(600_000);

killedUpSuite("dynamic");
