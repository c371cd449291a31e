/**
 * The results folder's writes: the atomic writer of run/fs (a temp file beside the target, then a
 * rename), re-exported for the runner. New code imports `../run/fs/atomic-write.ts` directly.
 */
export { writeFileAtomic, writeJsonAtomic } from "../run/fs/atomic-write.ts";
