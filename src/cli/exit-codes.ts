/**
 * Exit codes of armstudy (ADR 0081, README "Exit codes"):
 *   0   done, every run a result
 *   1   an unexpected failure (a bug; the stack trace is printed)
 *   2   bad input: a file, flag or model spec named in the message
 *   3   faults: one or more runs ended as `error` (the model could not be used, the harness failed),
 *       or the study stopped early because the same fault ended runs in a row
 *   130 interrupted (SIGINT or SIGTERM); finished runs are kept and `--resume` finishes the study
 */
export const EXIT_OK = 0;
export const EXIT_INPUT = 2;
export const EXIT_FAULT = 3;
export const EXIT_INTERRUPTED = 130;
