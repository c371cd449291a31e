/**
 * The escape suite with the shell calls in the run's one sandbox, as runAgent makes them (ADR 0113).
 * The attempts are in support/escape-suite.ts; escape-per-call.test.ts runs them with a sandbox per call.
 */
import { escapeSuite } from "./support/escape-suite.ts";

escapeSuite("run");
