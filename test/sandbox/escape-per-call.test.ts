/**
 * The escape suite with a sandbox per shell call, as a caller with no run (a policy tool, a test)
 * gets them. The attempts are in support/escape-suite.ts; escape.test.ts runs them in a run's sandbox.
 */
import { escapeSuite } from "./support/escape-suite.ts";

escapeSuite("per-call");
