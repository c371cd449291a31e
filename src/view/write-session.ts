/** `armstudy analyze FILE --html OUT`: a recorded session's viewer page, written atomically. */
import type { SessionFormat } from "../sessions/format.ts";
import type { PageAssets } from "./assets.ts";
import { sessionFilePage } from "./session-page.ts";
import { writePage } from "./write.ts";

export async function writeSessionView(sessionFile: string, out: string, format: SessionFormat | "auto" = "auto", assets?: PageAssets): Promise<void> {
  const { index, payload } = await sessionFilePage(sessionFile, format);
  await writePage(out, index, [{ key: index.runs[0]?.key ?? "session/0", payload }], assets);
}
