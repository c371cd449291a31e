import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenCounter, countTokens } from "../../../src/core/tokens.ts";
import { REPORT_PATTERNS, analyzeFinalReport, explainFinalReport, plainLine, reportPatternHits } from "../../../src/core/report/analyze.ts";
import { editBlocks, hasEditBlock } from "../../../src/core/report/edits.ts";

describe("the pattern table", () => {
  it("has unique ids prefixed by their group, and no global or sticky flags (test() must be stateless)", () => {
    const ids = REPORT_PATTERNS.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(REPORT_PATTERNS.filter((row) => !row.id.startsWith(`${row.group}.`)).map((row) => row.id)).toEqual([]);
    expect(REPORT_PATTERNS.filter((row) => row.pattern.global || row.pattern.sticky).map((row) => row.id)).toEqual([]);
  });

  // Dense input → expected rows: each line is a whole reply, and the rows that fire on it.
  const rows: Array<[string, string[]]> = [
    ["Done.", ["complete.word"]],
    ["All set: the flag is on.", ["complete.word"]],
    ["Implemented the cache and updated its tests.", ["complete.verb"]],
    ["I've ported the selector to the theme system.", ["complete.ive"]],
    ["We have successfully migrated both tables.", ["complete.ive"]],
    ["Now everything is committed.", ["complete.state", "complete.final", "complete.now"]],
    ["Here's the updated commit message:", ["complete.here"]],
    ["Plan complete and saved to `docs/plan.md`.", ["complete.final", "complete.here"]],
    ["The fix: extracted the helper and called it from both paths.", ["complete.verb"]],
    ["The test is now deterministic.", ["complete.now"]],
    ["Now that we've extracted the helper, we should test it.", []],
    ["This dead code should be removed.", []],
    ["Now the importer reads v3 sessions.", ["complete.now"]],
    ["That should fix it.", ["complete.idiom"]],
    ["Refactor complete.", ["complete.final"]],
    ["All tests pass.", ["complete.checks"]],
    ["The refactor worked.", ["complete.idiom"]],
    ["The exporter is not done yet.", ["unfinished.not"]],
    ["This is incomplete.", ["unfinished.word"]],
    ["Remaining:\n- the docs page", ["unfinished.remaining"]],
    ["The docs part remains.", ["unfinished.remaining"]],
    ["Two tests still fail.", ["unfinished.still", "unfinished.fails", "reason.cause"]],
    ["The export is in. The README still describes the old flag.", ["complete.state", "unfinished.still"]],
    ["The two wording comments are pending.", ["unfinished.pending"]],
    ["npm test fails: 3 failures in auth.", ["unfinished.fails", "reason.cause"]],
    ["One test fails, as it did before my change.", ["reason.cause"]],
    ["1 fails (`net.test.ts`, needs network; it failed the same way before my change).", ["reason.cause"]],
    ["Why it doesn't fail locally:", ["reason.cause"]],
    ["The input passes `isJSON` but fails `parse`, exercising the fallback.", ["reason.cause"]],
    ["The function still fails gracefully by returning nothing.", ["reason.cause"]],
    ["Rewind is blocked when the repo is disabled.", []],
    ["The other session's checkpoints remain on the shadow branch.", []],
    ["Want to go with the wrapper approach?", ["permission.clipped"]],
    ["Three files to go.", ["unfinished.remaining"]],
    ["Half of the endpoints use the new router.", ["unfinished.count"]],
    ["Addressed 5 of the 7 comments.", ["complete.verb", "unfinished.count-of"]],
    ["Converted 16 of 16 endpoints.", ["complete.verb"]],
    ["Everything builds, apart from the Windows job.", ["unfinished.except"]],
    ["B3 is next.", ["unfinished.next", "next.step"]],
    ["- [x] parse\n- [ ] migrate", ["mark.progress"]],
    ["Added the parser. Want me to keep going?", ["complete.verb", "continue.ask", "permission.clipped"]],
    ["B3 is done. Want me to pick up B4?", ["complete.state", "complete.final", "continueNext.pick-up", "permission.clipped"]],
    ["Which way?\n\nWant to:\n1. do it now\n2. file a follow-up", ["permission.options", "content.ask"]],
    ["Done. If it helps, I can also add the same to search.", ["complete.word", "permission.soft"]],
    ["Yes, I can use it. Would you like me to do something specific in Linear?", ["filler.sign-off"]],
    ["Here's a markdown sample:\n\n| Tables | In progress |", ["content.sample"]],
    ["Two execution options:\n\n1. Not started: subagents\n2. Not started: a new session", ["content.plan"]],
    ["The test now expects:\n- rewind fails with an error", ["content.description"]],
    ["The codebase is ready for it. Key findings:\n\n- ❌ new fields needed\n- ✅ parser exists", ["complete.state", "content.findings"]],
    ["Works. The flags set the version.", ["complete.word", "next.step"]],
    ["The root cause was the early return.\n\nThe flow is long.\n\nIt took a while.\n\n**Three fixes applied:**\n\n1. the helper", ["complete.label"]],
    ["Summary of changes:\n- ✅ parser\n- ❌ periodic check", ["complete.idiom", "mark.progress"]],
    ["## Changes Made", ["complete.label"]],
    ["All green. Lint is clean.", ["complete.word", "complete.state"]],
    ["| state | meaning |\n|---|---|\n| IDLE | waiting for a prompt |\n| ENDED | not started again |", []],
    ["| step | state |\n|---|---|\n| B3 | blocked: needs #41 |", ["unfinished.blocked", "reason.cause"]],
    ["The second writer saw an incomplete manifest.", []],
    ["The old importer is incomplete by design.", []],
    ["A job is pending until a worker takes it.", []],
    ["When I deleted the file, the method definition was removed.", []],
    ["Bug 2 (BaseCommit not updated)\n\nFixed it in the hook.", ["complete.word", "complete.verb"]],
    ["After a fresh clone the lookup fails. Want me to implement the fallback?", ["unfinished.fails", "reason.cause", "permission.clipped", "findings.no-claim"]],
    ["Updated the docs. Ready to commit if you'd like.", ["complete.word", "complete.verb", "complete.state", "permission.soft"]],
    ["Want me to implement this with both:\n- the UUID\n- the line count", ["permission.options", "content.ask"]],
    // Round 4 (docs/decisions/0140), from dev replies only.
    ["Status corrected. Would you like to tackle user story 5 next to complete the project?", ["next.step", "permission.would-you-like", "permission.what-next"]],
    ["I've created the file. What's next?", ["complete.ive", "next.step", "permission.what-next"]],
    ["Would you like to commit this fix? I can suggest a message:\n\n```\nfix: paths\n```", ["permission.would-you-like", "permission.what-next", "content.ask"]],
    ["Copilot has been working on this problem for a while. It can continue to iterate, or you can send a new message to refine your prompt.", ["continue.ask", "next.step", "permission.soft"]],
    ["I'm currently restricted to working within the current workspace.", ["unfinished.cannot"]],
    ["Okay, I've reviewed the brief. Here's my take on the next best step.", ["next.step"]],
    ["Okay, the run command has been started in the background.", ["complete.state"]],
    ["Nuxt 2.10 might not support some of the newer features of Node 18.", []],
    ["Hook source: running from one of the two active sessions.", []],
    ["After the reset we still get \"Session 'task#008' not found\" on every call.", ["unfinished.still"]],
    ["## Why ping fails but HTTP works\n\nContainers do not answer ICMP.", ["reason.cause"]],
    ["Would you like me to apply the overlay fixes now to achieve 100% test pass rate?", ["unfinished.count", "permission.want-me"]],
    ["Both issues are fixed.\n\nWould you like me to:\n1. wait for the success status\n2. check the response processing\n\nWe're very close to a working test!", ["complete.state", "complete.final", "permission.want-me", "permission.options", "content.ask"]],
    ["I've fixed the workflow.\n\n❌ Original problematic command:\n\n```\ncd agent\n```\n\nThe fix adds `cd ..` first.", ["complete.ive", "complete.result"]],
    ["The Problem: the trigger only works when the workflow file is in the default branch. Which solution would you prefer?", ["permission.prefer"]],
    ["Added a full done / partial / not done matrix to the doc.", ["complete.verb"]],
    ["I can help you modify the files programmatically if you tell me what you want changed.", ["permission.soft", "permission.tell-me"]],
    ["If you tell me your budget and region, we can narrow it to one stack.", ["permission.soft"]],
    ["Added 1-4. Want me to implement any of the remaining suggestions?", ["complete.verb", "unfinished.remaining", "permission.clipped"]],
    ["The other 3 comments were already fixed in the latest commits.", []],
    ["The change is clean.", ["complete.state"]],
    ["Added a retry, giving you 2 attempts before the release fails.", ["complete.verb", "reason.cause", "next.step"]],
    ["The plan is updated with the correct approach.", ["complete.state"]],
    ["Clean. The fix adds the directory first.", ["complete.word", "complete.result"]],
    ["No diff, gofmt is satisfied now.", ["complete.state"]],
    ["I'll pause here and wait for you to finish the rebase.", ["reason.cause", "next.step", "next.own-act"]],
    ["We can't see it from a fresh clone. We'd need access to the original copy.", ["unfinished.cannot", "reason.cause", "next.step"]],
    ["No conflict markers remain.", []],
    ["Done. The 2 remaining comments are theoretical - want me to address those or leave them?", ["complete.word", "unfinished.remaining", "permission.clipped"]],
    ["That's the full design. Ready to write it to docs/plans/ and proceed to implementation?", ["permission.ready"]],
    ["Option B is simpler. Which storage approach do you prefer?", ["permission.prefer"]],
    ["I'd put it in the handler. What do you prefer?", ["permission.prefer"]],
    ["| step | result |\n|---|---|\n| build | ✅ PASS |\n\n**Overall: ✅ PASS**\n\nNotes follow.", ["complete.verdict"]],
    ["Added logging for marshaling failures in the chunker.", ["complete.verb"]],
    ["The file already has it. Would you like to add a different one, or modify the existing line?", ["permission.would-you-like", "permission.choice", "permission.either-or"]],
    ["Two tests still fail. Should I fix them?", ["unfinished.still", "unfinished.fails", "reason.cause", "permission.should"]],
    ["The Builder isn't wrong; it's working code.", []],
    ["Every prompt calls the hook, which now sets the field.", []],
    ["A request that still fails after three tries is logged.", ["reason.cause"]],
    ["Days with incomplete data are drawn dashed.", []],
    ["Risks I see:\n- rollback is not tested", ["content.description"]],
    ["Let me know which setup you're targeting and I'll build it.", ["permission.let-me-know"]],
    ["The design for the empty state isn't settled.", ["reason.cause"]],
    ["Requests over the limit are blocked with a 429; blocked clients are logged.", ["reason.cause"]],
    ["Rebase completed successfully. The remaining 2 commits applied cleanly on top.", ["complete.final"]],
    ["The remaining 8 tests still use the old helper.", ["unfinished.remaining", "unfinished.still"]],
    ["This looks like scaffolding for a feature that was never completed.", []],
    ["I now have all the version information needed.", []],
    ["| Silent reads | Reading chunk files can fail silently |", ["reason.cause"]],
    ["Option 2 is cleaner. What's your preference?", ["permission.prefer"]],
    ["All changes have been implemented and verified.", ["complete.state"]],
    ["The suppression comment remains accurate.", []],
    ["I'd go with the extension method — thoughts?", ["permission.sound-good"]],
    ["Tests written. What would you like to do next?", ["complete.final", "next.step", "permission.what-next"]],
    ["The skill suggests a local file, but your call.", ["permission.soft"]],
    ["Fixed the crash.\n\n> TypeError: the build fails on start", ["complete.word", "complete.verb", "content.quote"]],
    ["Fixed the crash.\n\n> Note: the Windows job still fails", ["complete.word", "complete.verb", "unfinished.still", "unfinished.fails", "reason.cause"]],
    ['You wrote: "the remaining tests still fail". Fixed it: the path join was wrong.', ["complete.word", "complete.verb"]],
    ["Just say the word.", ["permission.soft"]],
    ["Or keep both for a while?", ["permission.or"]],
    ["What should I work on next?", ["next.step", "permission.should", "permission.what-next"]],
    ["I couldn't reach the staging server.", ["unfinished.cannot", "reason.cause"]],
    ["Blocked on the API key.", ["unfinished.blocked", "reason.cause"]],
    ["Stopped before step 4.", ["unfinished.blocked"]],
    ["The build needs Node 22.", ["reason.cause"]],
    ["The staging API returns 401.", ["reason.status"]],
    ["Next step: run the seed script.", ["next.step"]],
    ["Should I proceed with the rest?", ["permission.should"]],
    ["Would you like me to add tests?", ["permission.want-me"]],
    ["Want me to begin?", ["permission.clipped"]],
    ["Let me know if you'd like me to add tests.", ["permission.let-me-know", "permission.tell-me"]],
    ["Ready to proceed with implementation?", ["permission.ready"]],
    ["Or would you prefer the other option?", ["permission.prefer", "permission.or"]],
    ["Does that sound good?", ["permission.sound-good"]],
    ["OK to proceed?", ["permission.proceed"]],
    ["The page loads.\n\nNothing needed next.", ["next.step", "filler.nothing-needed"]],
    ["The page loads.\n\nNo action required.", ["filler.no-action"]],
    ["The page loads.\n\nNext steps: none.", ["next.step", "filler.next-none"]],
    ["The page loads.\n\nHope this helps!", ["filler.sign-off"]],
    ["The page loads in 80 ms on the cold path.", []],
    // docs/decisions/0124: an offer with its condition first, when the condition names more work.
    ["If you want me to add a CLI test too, let me know.", ["permission.if-let-me-know", "permission.offer-help"]],
    ["If you need any further tweaks to the wording, let me know!", ["reason.cause", "permission.if-let-me-know"]],
    ["Let me know if you need further changes.", ["reason.cause", "permission.if-let-me-know"]],
    ["If you need anything else, let me know!", ["reason.cause"]],
    // 0124: a present-perfect passive with an adverb is a claim.
    ["The config loader has now been updated to read v3 files.", ["complete.state"]],
    // 0124: a negated status in a relative clause qualifies the things named, not the work.
    ["The exporter will only list jobs that are not done.", []],
    ["The jobs that aren't finished stay in the queue.", []],
    // 0124: a failure the reply places outside the work.
    ["The other failing tests are outside the scope of this task.", ["reason.cause"]],
    ["There are some failures in other modules.", []],
    ["Three tests fail outside the scope of this change.", ["reason.cause"]],
    // 0124: a failure that a fixing verb takes as its object is gone.
    ["We fixed the two failing tests in the importer.", ["complete.ive", "reason.cause"]],
    // 0124: the perfect aspect of the checks row, and "X now:" heading what it now does.
    ["Both tests have passed.", ["complete.checks"]],
    ["The exporter now:\n1. Streams rows\n2. Retries on 503", ["complete.now"]],
    // 0124: a defect that "is in" a place is located, not delivered; a deliverable that is in one is.
    ["The key issue is in the session store.", []],
    ["The plan is in `PLAN.md`.", ["complete.state"]],
    // 0124: "should be fixed to <do something>" recommends a fix; "should be fixed now" is a hedged claim.
    ["This bug should be fixed to strip the prefix.", []],
    ["The import should be fixed now.", ["complete.state"]],
    // 0124: the agent's readiness as the last sentence waits for the word; a branch's readiness is a claim.
    ["The spec is updated. Ready to proceed with implementation!", ["complete.state", "complete.final", "permission.ready"]],
    ["The branch is ready to merge.", ["complete.state"]],
    // Round 5 (docs/decisions/0152): completion read from any regular past verb but reading, trying and wanting ones,
    // any perfect passive but states and descriptions; asks read by what the ending does.
    ["I corrected the off-by-one in the pager.", ["complete.ive"]],
    ["We integrated the formatter into the build.", ["complete.ive"]],
    ["The fixes we tried did not help.", []],
    ["I noticed the cache is cold on start.", []],
    ["The login page has been redesigned with a cleaner layout.", ["complete.state"]],
    ["This flag has been deprecated since 2.0.", ["reason.cause"]],
    ["Here's what changed:\n- the pager counts from one", ["complete.label"]],
    ["Once you confirm, I'll apply the same change to the other modules.", ["next.step","permission.your-word"]],
    ["If this looks good, I'll merge it.", ["permission.your-word", "permission.if-approved"]],
    ["Once you pick one of the two mockups I'll wire it.", ["next.step"]],
    ["Let me know how you'd like to proceed.", ["permission.tell-me"]],
    ["Tell me which option you prefer.", ["permission.tell-me"]],
    ["Would it help if I added a test for this?", ["permission.offer-question"]],
    ["Do you want these changes applied?", ["permission.offer-question"]],
    // Round 7, dev batch G (docs/decisions/0191).
    ["Posted: [comment on PR #7360](https://example.test/pull/7360).", ["complete.landed"]],
    ["Commit landed as `b51711ec` (the stray `@` was heredoc syntax).", ["complete.landed"]],
    ["All 4 changes are implemented and passing:", ["complete.landed"]],
    ["Which do you want?", ["permission.which-want"]],
    ["Does that distinction land for you, or do you want all twelve required?", ["permission.which-want"]],
    ["Uncommitted: the new script. Want them as their own commit, or folded into the website commit?", ["permission.want-it"]],
    ["Happy to refresh the README to cover all three levels whenever you want it.", ["permission.whenever"]],
    ["Take a look and tell me what's off.", ["permission.whenever"]],
    ["Check the Write box for logs, save, and I'll verify on the VPS.", ["unfinished.waits-on-person", "reason.waits-on-person", "next.waits-on-person"]],
    ["Fix subagent still running, will report when done.", ["unfinished.waits-on-person", "reason.waits-on-person", "next.waits-on-person"]],
    ["I ran a review pass, fixed the issues it surfaced, and committed the Phase 1 work.", ["complete.series"]],
    ["If you want, next step is to commit this route-aware fix.", ["next.step", "permission.next-step-if"]],
    // Round 8, dev batch H (docs/decisions/0202): approval questions; a named blocker, not after an "if".
    ["Does that reasoning track, or do you see it differently?", ["permission.approve"]],
    ["Agree with all three? Anything you'd tweak?", ["permission.approve"]],
    ["Does that work for you?", ["permission.sound-good"]],
    ["The remaining blocker is gh auth itself.", ["unfinished.blocker", "reason.blocker"]],
    ["Hit a snag — the lockfile is rejected.", ["unfinished.blocker", "reason.blocker"]],
    ["If the remaining blocker is auth, rerun login.", ["next.step"]],
    // docs/decisions/0203: a finished act said noun first; "remain"/"leftover" about things outside the work read nothing.
    ["Merge committed as 932a360.", ["complete.noun-committed"]],
    ["Existing .pnpm-store/ remains untracked and untouched.", []],
    ["Only the existing whitespace issue remains unrelated.", []],
    ["The old flag can remain a last-resort fallback.", []],
    ["There are no leftover conflict markers.", []],
    ["Two leftover TODOs in the parser.", ["unfinished.remaining"]],
    ["One failing test remains unfixed.", ["unfinished.remaining", "unfinished.fails", "reason.cause"]],
    // docs/decisions/0204: a step the agent would not force; a step said not to apply; a bare "Good?" closing a proposal.
    ["pnpm aborted without a TTY, so I did not force it.", ["reason.cause", "unfinished.not-forced"]],
    ["If it fails again, I did not force it.", ["reason.cause"]],
    ["I did not run tests since this was only a branch sync.", ["reason.cause"]],
    ["I did not run the tests.", ["unfinished.not", "next.step"]],
    ["No automated tests; they would be flaky. Good?", ["permission.bare-approval"]],
    ["Is that good? I think so.", []],
    // The guards of 0191: an offer after "if", an instruction, a failure mended in the sentence.
    ["If validation surfaces issues, tell me what you see and I'll adjust the script.", ["permission.soft"]],
    ["- Do not run the agent.", ["next.step"]],
    ["Four assertions were failing on hardcoded coordinates, so I added a helper.", ["complete.ive", "reason.cause"]],
    ["I can also add a dark mode toggle.", ["permission.offer"]],
    ["I can help with anything else you need.", ["reason.cause"]],
    ["Modified `bar.ts` to validate the input before saving.", ["complete.verb"]],
    ["Successfully implemented the login feature.", ["complete.verb"]],
    ["Revised Solution: a lock file", []],
    ["I went ahead and added the missing import.", ["complete.verb","reason.cause"]],
    ["The README now documents the `--verbose` flag.", ["complete.now"]],
    ["Everything should now work as expected.", ["complete.idiom"]],
    ["Your project is set up and ready to go.", ["complete.idiom"]],
    ["Both files were updated to use the new API.", ["complete.state"]],
    ["This bug was caused by a stale cache.", ["reason.cause"]],
    ["I can see the function was added twice.", []],
    ["Please add `src/app.py` to the chat if you want me to proceed.", ["next.asks-person", "permission.your-word"]],
    ["Please add `src/app.py` to the chat so I can make the changes.", ["next.asks-person"]],
    ["I don't see a config file. Otherwise, I can help you create one.", ["permission.offer"]],
    // From dev batch D (docs/decisions/0152): menus and prompts, approval questions, observations and relative clauses,
    // evaluations of the code, attributive participles, code printed without a fence, sign-offs.
    ["Choose [1], [2], or specify which issue to examine:", ["permission.menu"]],
    ["Please select an option.", ["next.asks-person", "permission.menu"]],
    ["Should I update the story status to done? (y/n)", ["permission.should","permission.menu"]],
    ["Choose the option that best fits your project requirements.", []],
    ["Would you like to add `main.py` to the chat?", ["permission.would-you-like"]],
    ["Would you like to try running it to verify the fix?", []],
    ["Do you approve this proposal for implementation?", ["permission.sound-good"]],
    ["Ready for more discussion?", ["permission.ready"]],
    ["If you need a concrete implementation, please specify, and I will provide code.", ["reason.cause","next.step","permission.tell-me"]],
    ["This should be in the HTTP handler.", []],
    ["I can only see the file that was explicitly added.", []],
    ["It looks like Epic 1 was recently completed.", []],
    ["Now, regarding your question about the cache", []],
    ["The server partially satisfies the architecture.", []],
    ["The migration is partially done.", ["complete.final","unfinished.word"]],
    ["The system must return an error for any blocked operation.", ["reason.cause"]],
    ["Run the workflow to generate failing tests for P0.", ["reason.cause","next.step"]],
    ["7         except FileNotFoundError:", []],
    ["Is there anything else you'd like me to do?", ["filler.sign-off"]],
    ["Ready for next task.", ["next.step","filler.sign-off"]],
    ["I have verified this by inspecting the routes.", []],
    // From dev batch D, Aider replies (0152): help offered with named work, code work handed back, generic help as filler.
    ["Let me know if you need help implementing any of these changes!", ["reason.cause", "permission.offer-help"]],
    ["Let me know if you need further assistance!", ["reason.cause", "filler.generic-help"]],
    ["If you have other files you would like me to review, please let me know.", ["permission.offer-help", "permission.if-offer"]],
    ["You'll need to update the `ingest` and `embed` functions to use the new embedder.", ["unfinished.handed-back", "reason.cause"]],
    ["You'll need to add the key to your `.env` file.", ["reason.cause"]],
    ["Please provide the details, and I'll be happy to assist you further.", ["next.step", "next.asks-person", "filler.generic-help"]],
    ["Key Improvements Made:\n- Added retries", ["complete.verb", "complete.label"]],
    ["This avoids the overhead of waiting for file writes.", ["reason.cause"]],
    ["It writes the embeddings directly instead of waiting for it to complete.", ["reason.cause", "next.step"]],
    // From dev batch D chunk 3 (0152): talk is not work, delivery that could not be made, fallbacks in conditions, kept properties.
    ["For the PR we discussed, I would need to see the diff.", ["reason.cause", "next.step"]],
    ["Since we're unable to commit due to container limitations, here is a summary.", ["unfinished.cannot", "reason.cause"]],
    ["An issue with the Git configuration is preventing commits.", ["unfinished.blocked"]],
    ["If that doesn't work, configure Git to use HTTPS.", []],
    ["The system remains functional with partial configurations.", []],
    ["We are still following the plan but need to complete:", ["next.step", "content.plan"]],
    ["Let me know if you encounter any other specific issues!", ["filler.sign-off"]],
    // From dev batch D chunks 4-5 (0152): closing offers only, wh-questions, conditions, recaps after an ask, running services.
    ["I can help you fix this fork error. Let me check the logs.", ["reason.cause", "next.own-act"]],
    ["Hi! What would you like to work on?", []],
    ["✅ No hardcoded colors or styles remain", ["complete.idiom"]],
    ["If you still see any errors, please share them.", ["reason.cause", "next.step"]],
    ["Next, we need to create the repository on GitHub and push.", ["unfinished.next", "reason.cause", "next.step"]],
    ["Status: Phase 1.2 complete. Ready to proceed to Phase 1.3 (Assets).", ["complete.final", "permission.ready"]],
    ["Awaiting your direction on how to proceed.", ["permission.your-word"]],
    ["If you find the effect too strong, we can easily adjust the opacity values.", ["permission.soft"]],
    ["Would you like help setting up browser-based SSH auth?", ["permission.would-you-like-a"]],
    ["Would you like help with anything else?", ["filler.sign-off"]],
    ["Here's an updated version with some advanced CSS techniques:", ["complete.here"]],
    ["The development server is now running.", ["complete.idiom"]],
    ["The error occurs because no server is running there.", ["reason.cause"]],
    ["The server has started successfully.", ["complete.idiom"]],
    ["Template files can be reviewed later if needed.", ["unfinished.deferred"]],
    ["Based on my research, I've discovered where the sessions are stored.", []],
    ["I'll leave the migration for you to run, since it needs production access.", ["unfinished.handed-back", "reason.cause", "next.own-act"]],
    ["I've paused here so you can review the schema.", ["unfinished.blocked"]],
    ["The commit is held by the hooks. You can manually complete the commit.", ["unfinished.handed-back"]],
    // Second wave (docs/decisions/0167): an imperative "Complete the X" is a step to take, not a state;
    // an answer's unfinished rows describe its subject.
    ["1. **Complete the analytics dashboard**", []],
    ["Complete.", ["complete.word"]],
    ["Looking at your branch, the export is not implemented yet.", ["unfinished.not", "answer.no-state"]],
    // The result stated without a completion word (0167): a defect gone, a behaviour working now, irregular verbs.
    ["Both bugs are gone.", ["complete.result"]],
    ["It no longer crashes on empty input.", ["complete.result"]],
    ["Should work now.", ["complete.result"]],
    ["You're all set!", ["complete.result"]],
    ["Took care of both issues.", ["complete.verb"]],
    ["I've taken care of the migration.", ["complete.ive"]],
    ["I got the build working again.", ["complete.ive"]],
    ["Make sure it no longer crashes before you merge.", []],
    ["Try it and see if it works now.", []],
    ["The errors are gone only when the cache is cold.", ["reason.cause"]],
    ["This resolves the compiler warning about the unused variable.", ["complete.result"]],
    ["The PR is up: #42.", ["complete.result"]],
    ["Everything should be good now.", ["complete.result"]],
    ["Why this solves the race:", []],
    // An alternative compared is not the work (0167): "the DOM one fails" names the rejected option.
    ["The streaming parser finishes in 9 s; the DOM one fails with out-of-memory.", ["reason.cause"]],
    ["Two tests fail with out-of-memory.", ["unfinished.fails", "reason.cause"]],
    // From dev batch E chunk 1 (0167): an imperative after "Now", a property kept, a next task offered as a question.
    ["Now visit http://localhost:3000/debug in your browser.", []],
    ["Now the banner shows on every page.", ["complete.now"]],
    ["The layout keeps the content width, ensuring the text remains easy to read.", []],
    ["Content remains contained within the column.", []],
    ["The export remains blocked on the missing token.", ["unfinished.remaining", "unfinished.blocked", "reason.cause"]],
    ["Would you like to start working on Task 6 next?", ["next.step", "permission.would-you-like", "permission.what-next"]],
    ["I'll port the settings page next.", ["unfinished.next", "next.step", "next.own-act"]],
    ["If you have more errors or need further cleanup, let me know!", ["reason.cause", "filler.generic-need"]],
    ["Let me know if you have more issues to address!", ["filler.generic-need"]],
    ["Let me know if you need further refinements or want to propagate this elsewhere.", ["reason.cause", "permission.if-let-me-know"]],
    // From dev batch E chunk 2 (0167): the next act conditional on the person's wish; a generic need is a sign-off.
    ["If you want the silhouette leaner, say which direction and we can tune it next.", ["next.step", "permission.soft"]],
    ["If you want the rest done, send it again and I'll work through the remaining gaps.", ["next.step", "permission.soft"]],
    ["Admin pages still use the old shell — say if you want those pushed through the same treatment.", ["unfinished.still", "permission.soft"]],
    ["If you need further refinements or have additional requirements, let me know!", ["reason.cause", "filler.generic-need"]],
    ["Here's what shipped:", ["complete.label"]],
    // An own error not said to be mended is work left (0167); one put right is history.
    ["I made an error - I duplicated the resolve section. Let me fix that:", ["unfinished.own-error", "reason.cause", "next.own-act"]],
    ["I made a mistake in the config earlier. I've fixed it now.", ["complete.ive"]],
    // From dev batch E chunk 3 (0167): history with a year, a rule's case, what a feature blocks, a table's name.
    ["Cards were renamed in 2021.", []],
    ["- Registered abroad, not yet registered locally → the button is now disabled too", ["complete.now"]],
    ["The login is not yet registered locally.", ["unfinished.not"]],
    ["- Police request API + UI (police request blocked for diplomats)", []],
    ["The deploy is blocked for now.", ["unfinished.blocked"]],
    ["The in progress table was already correct.", []],
    ["The settings page is in progress.", ["complete.state", "unfinished.word"]],
    ['Say "go ahead" when you want me to implement it.', ["permission.soft"]],
    ["Switch to Agent mode if you want help walking through a live run.", ["permission.soft"]],
    // From dev batch E chunk 4 (0167): a hedged fix claim opening a clause; a check kept from running is blocked.
    ["This should fix the build error in your CI pipeline.", ["complete.idiom", "reason.cause"]],
    ["Some console issues prevented full testing.", ["unfinished.blocked"]],
    ["A hook kept me from running the suite.", ["unfinished.blocked"]],
    ["This prevents duplicate writes.", []],
    // A case the code meets is not the work's state (0167): conditions, and what a feature does with such cases.
    ["If the migration is incomplete, rerun the script.", ["next.step"]],
    ["When a job is pending, the worker retries it.", []],
    ["The parser handles incomplete lines by buffering them.", []],
    ["Added a check for the case where the upload fails halfway.", ["complete.verb", "reason.cause"]],
    ["| B3 CLI flag | blocked: needs the config change from #41 |", ["unfinished.blocked", "reason.cause"]],
    ["The importer handles CSV now, but the JSON path is incomplete.", ["unfinished.word"]],
    // From dev batch E chunks 5-6 (0167): what the person can now do is the asked state delivered; an adverb before "now <verb>s".
    ["Perfect! You can now test it in any directory.", ["complete.result"]],
    ["Now you can use:", ["complete.result"]],
    ["Great! The code now dynamically reads the version from package.json.", ["complete.now"]],
    // Round 6 (0176): a failure negated or elsewhere, a thing kept, an ability or a concession, checker errors left, the rest of the work.
    ["The fallback ensures the import doesn't completely fail on bad rows.", ["reason.cause"]],
    ["It degrades gracefully rather than completely failing.", ["reason.cause"]],
    ["The import still fails on bad rows.", ["unfinished.still", "unfinished.fails", "reason.cause"]],
    ["There are failing tests in other parts of the codebase.", ["reason.cause"]],
    ["The old header remains.", []],
    ["One issue remains.", ["unfinished.remaining"]],
    ["The migration step remains.", ["unfinished.remaining"]],
    ["I can't open Word and edit like a human, but I can help you read the XML.", ["reason.cause"]],
    ["I can't reach the staging server.", ["unfinished.cannot", "reason.cause"]],
    ["While we can't see the detailed output here, the run exits cleanly.", ["reason.cause"]],
    ["We can't see the output, so the fix is unconfirmed.", ["unfinished.cannot", "reason.cause"]],
    ["There are still 3 type errors in the file.", ["unfinished.errors-left", "reason.cause"]],
    // In an answer the errors describe its subject; after the reply reports its own work done they are the work's (0176).
    ["I can see there are many linting errors in the file.", ["unfinished.errors-left", "reason.cause", "answer.no-state"]],
    ["I can see there are many linting errors, but I've implemented both methods.", ["complete.ive", "unfinished.errors-left", "reason.cause"]],
    ["I will proceed to implement the same workflow for the following areas, one by one:", ["unfinished.next", "next.own-act"]],
    // Dev batch F chunk 1 (0177): a former state, a defect's impact, a harm prevented, a document's content, more claim forms.
    ["- 25 tests passing (previously 3 failing)", ["reason.cause"]],
    ["- Impact: Incomplete configuration guidance", []],
    ["The factory gives each test its own instance, preventing test interference.", []],
    ["A hook is preventing the commit.", ["unfinished.blocked"]],
    ["I've updated the plan to reflect what's still pending.", ["complete.ive"]],
    ["The file now shows a clear breakdown of missing work - 6 test files still need to be created.", ["complete.now", "reason.cause"]],
    ["Added tasks for the remaining work.", ["complete.verb"]],
    ["The remaining work: the CLI.", ["unfinished.remaining"]],
    ["This resolves both the ambiguity error and the interface errors.", ["complete.result", "reason.cause"]],
    ["The tool was run with the argument awesome.", ["complete.state"]],
    ["I have significantly increased the test coverage.", ["complete.ive"]],
    ["If you need, I can suggest specific logging changes.", ["reason.cause", "permission.soft"]],
    ["While there are some minor linter warnings remaining, the core is ready.", ["unfinished.errors-left"]],
    // Dev batch F chunk 3 (0177): a future after "Now", a location, a document's priorities, checker errors that remain, a change's effect.
    ["Now we'll see detailed logging of:", []],
    ["The config file matches exactly what's in the zip file.", []],
    ["I've updated TODO.md to accurately reflect the current state of the project and prioritize the remaining tasks.", ["complete.ive"]],
    ["However, the same persistent linter errors remain in core.py.", ["unfinished.errors-left", "reason.cause"]],
    ["- No linting issues remain", []],
    ["These changes make the CLI much more robust.", ["complete.result"]],
    ["These changes would make the CLI more robust.", []],
    // Dev batch F chunk 2 (0177, written after chunks 3-4 were scored): kept properties with an adverb, what the code keeps
    // itself from doing, a first pass done, one issue remaining, a numbered part next, what a fix does.
    ["All the existing commands remain exactly the same.", []],
    ["The leading line remains only as a breadcrumb.", []],
    ["This ensures the script exits, preventing it from running in the wrong place.", []],
    ["First pass of Task 2 completed:", ["complete.final", "unfinished.count"]],
    ["However, I need to address one remaining semantic issue.", ["unfinished.remaining", "reason.cause"]],
    ["I will now proceed with Phase 1 of the plan.", ["unfinished.next", "next.own-act"]],
    ["Say go and I'll start with step 1.", ["permission.soft"]],
    ["The fix removes the packages line.", ["complete.result"]],
    ["The fix would remove the packages line.", []],
    ["I started adding it but there's one linter error to fix.", ["unfinished.errors-left", "reason.cause"]],
    ["There's one formatting error that needs to be fixed.", ["unfinished.errors-left", "reason.cause"]],
    // docs/decisions/0220: a failure given as a mechanism (an effect, a case in a relative clause, one behaviour against another).
    ["Lag across nodes causes the next query to fail with a timeout.", ["reason.cause", "next.step"]],
    ["The build fails on the type check.", ["unfinished.fails", "reason.cause"]],
    ["A tool whose output fails to parse has no test.", ["reason.cause"]],
    ["Missing values fail assertions instead of panicking.", ["reason.cause"]],
    ["Brew's bottles fail out of the box on NixOS.", ["reason.cause"]],
    // … and a leftover kept by choice or named unrelated; one that is neither is still work left.
    ['Two intentional "restore" mentions remain, on purpose:', []],
    ["Unrelated `.entire/` and `.github/hooks/` remain uncommitted.", []],
    ["Two failing tests remain.", ["unfinished.remaining", "unfinished.fails", "reason.cause"]],
    // docs/decisions/0221: the next step waits on someone else's act or report; "when you are ready" names no act, "if" offers.
    ["Let me know when you've pushed the tag.", ["unfinished.waits-on-report", "reason.waits-on-report", "next.waits-on-report"]],
    // (docs/decisions/0231: the go-ahead it waits for is the person's, an ask.)
    ["Let me know when you are ready to begin.", ["permission.when-ready"]],
    ["Once pushed, I can create the GitHub release.", ["next.step", "unfinished.waits-on-report", "reason.waits-on-report", "next.waits-on-report"]],
    ["Standing by for their results.", ["unfinished.waits-on-report", "reason.waits-on-report", "next.waits-on-report"]],
    // (docs/decisions/0231: a report asked for after the person's step, not their word on the agent's move.)
    ["Once you have logged in, tell me and we will proceed with saving the keys.", ["next.step", "unfinished.waits-on-report", "reason.waits-on-report", "next.waits-on-report"]],
    ["If you want, let me know when you've pushed the tag.", []],
    // … the diagnosis going on, the next result what will tell (a wh-word: not what a feature will show).
    ["This will pinpoint exactly where the initialization is failing.", ["reason.cause", "unfinished.awaits-result"]],
    ["That'll tell us whether our restructure is actually being exercised.", ["unfinished.awaits-result"]],
    ["The dashboard will show us the error rate.", ["reason.cause"]],
    // … and its claim side: the result launched and handed over to try; a check or job running now is under way.
    ["Running (pid 5558).", ["complete.launched"]],
    ["Ready to test!", ["complete.launched"]],
    ["The tray is running (PID 123039) and the timer is disabled.", ["complete.launched"]],
    ["CI is running now; I'll report back.", []],
    ["Running the tests now.", []],
    // docs/decisions/0222: a stage of this turn's work said not done — a requirement not met, the first person's "have not … yet",
    // "we'll … next", a fix deferred to a named later stage; a figure under its budget, or another's "has not … yet", is not.
    ["772,023 tokens, which is slightly over the 750,000 token target.", ["unfinished.target"]],
    ["Coverage is 3 points short of the 90 % goal.", ["unfinished.target"]],
    ["The bundle is 40 KB under the 50 KB budget.", []],
    ["I have not redeployed the plugin into Barnaby or rerun the direct app-side scenario yet.", ["unfinished.not", "next.step"]],
    ["The file has not been added yet.", []],
    ["We'll add the actual radial layout next.", ["unfinished.next", "next.step"]],
    ["3 failures - can be addressed during Phase 6 integration.", ["unfinished.deferred"]],
    ["Because of this limitation, I cannot perform a git pull on your behalf.", ["unfinished.cannot", "reason.cause"]],
    // docs/decisions/0231: permission asks that carry across projects (written examples of each shape) …
    ["Sound right? If so I'll start on the parser.", ["permission.bare-approval"]],
    ["The split is by month. Makes sense?", ["permission.bare-approval"]],
    ["If this design works for you, I'll start with the storage layer.", ["permission.if-approved"]],
    ["If the current workspace is a package, I'll read its manifest.", []],
    ["I'll write the migration once you choose a schema.", ["next.step", "next.own-act", "permission.once-you-choose"]],
    ["I'll take the full-screen view unless you say otherwise.", ["next.own-act", "permission.unless-you-say"]],
    ["The flag stays off by default unless you set VERBOSE=1.", []],
    ["To clear the warning, pick one:\n1. delete the file\n2. ignore it", ["permission.pick-one"]],
    ["The user can pick one of three themes.", []],
    ["Phase 1 is merged. Let me know when you're ready to start phase 2.", ["complete.state", "complete.final", "next.step", "permission.when-ready"]],
    ["Should the cache live in memory or on disk?", ["permission.either-or"]],
    ["Do you want the report as CSV, or only the summary table?", ["permission.prefer", "permission.either-or"]],
    ["The summary is in NOTES.md - would you rather read it there?", ["complete.state", "permission.either-or"]],
    ["Would you like a summary of the diff?", ["permission.would-you-like-a"]],
    ["Is this the layout you expected?", ["permission.whether-should"]],
    ["Was your point about whether we should cache it at all?", ["permission.whether-should"]],
    ["If you need help wiring the webhook, I can walk you through it.", ["reason.cause", "permission.if-offer"]],
    ["If you need help with anything else, I can help.", ["reason.cause"]],
    ["If you want a release for another tag — e.g. the beta — tell me which and I'll cut it.", ["permission.tell-me", "permission.if-offer"]],
    ["Let me know if the spacing is close enough or if you'd prefer a tighter grid.", ["permission.tell-me", "permission.if-offer"]],
    ["The config is written (not the lockfile), want me to commit it?", ["permission.want-it"]],
    ["Open questions:\n- Should the export keep the old column names?\n- Which date format?", ["permission.questions"]],
    ["Answers to your questions:\n- Is it thread-safe? Yes.", []],
    ["If the name is confusing we can rename it to something clearer like:", ["permission.if-we-can", "content.description"]],
    ["🎯 Ready to proceed to Phase 3 when you're ready!", ["next.step", "permission.ready"]],
    // … and what is not one: a task asked for, a decision followed, a report of the person's step, another's question.
    ["Ready for the next project. What would you like to work on?", ["next.step"]],
    ["Hi. What do you want to work on today?", []],
    ["Options A and B are above. What do you want to do?", ["permission.prefer"]],
    ["Kept the old name per your call.", []],
    ["Done. The CLI prompts: Do you want to continue? (y/n)", ["complete.word", "next.step"]],
    ["Added the confirm dialog that asks if you would like to proceed.", ["complete.verb"]],
    ["The tests pass. Want me to show the CODE output in the footer too?", ["complete.checks", "permission.clipped"]],
    ["I can help you pick up where you left off.", ["permission.offer"]],
    // docs/decisions/0233 (round 10, 12u): an untracked file left in the working tree is not work left; a leftover that is
    // not one still is.
    ["Remaining: one untracked scratch file.", []],
    ["The tree is clean except the pre-existing untracked cache folder.", ["complete.state"]],
    ["Remaining: the docs page.", ["unfinished.remaining"]],
    // … the next step the agent itself takes, said as the closing announcement (a question or "let me know" is not one) …
    ["I broke the import map. Let me put it back:", ["next.own-act"]],
    ["I'll rerun the suite after that.", ["next.step", "next.own-act"]],
    ["Let me know what you think.", []],
    // … or the person's act asked for: "please" or "could you" opening a sentence ("please note" informs).
    ["Could you send over the log file?", ["next.asks-person"]],
    ["I couldn't reach the download page because the site blocks scripts. Please download it yourself.", ["unfinished.cannot", "reason.cause", "next.asks-person"]],
    ["Please note the flag is off by default.", []],
  ];
  it.each(rows)("%j fires %j", (text, expected) => {
    expect(reportPatternHits(text)).toEqual(expected);
  });

  it("every row is exercised by the dense table above", () => {
    const covered = new Set(rows.flatMap(([, ids]) => ids));
    expect(REPORT_PATTERNS.map((row) => row.id).filter((id) => !covered.has(id))).toEqual([]);
  });
});

describe("edit blocks a harness applies (docs/decisions/0152)", () => {
  const block = ["cli.py", "```python", "<<<<<<< SEARCH", "x = 1", "=======", "x = 2", ">>>>>>> REPLACE", "```"].join("\n");

  it("a reply whose prose only introduces a SEARCH/REPLACE block claims the change", () => {
    for (const preamble of ["To add a `--verbose` flag, we need to modify `cli.py`:", "Here is the *SEARCH/REPLACE* block to add the flag:", "Let's update `cli.py` to add the flag:"]) {
      const text = `${preamble}\n\n${block}`;
      expect([analyzeFinalReport(text).claimsComplete, reportPatternHits(text).includes("complete.edit-block")]).toEqual([true, true]);
    }
  });

  it("an unfinished clause still outweighs it; a request for files or markers out of place claims nothing", () => {
    expect(analyzeFinalReport(`Here is the first of the three edits; the other two remain.\n\n${block}`)).toMatchObject({ claimsComplete: false, statesUnfinished: true });
    expect(analyzeFinalReport("Please add `src/app.py` to the chat so I can make the changes.").claimsComplete).toBe(false);
    expect(analyzeFinalReport("Aider writes edits as `<<<<<<< SEARCH` … `=======` … `>>>>>>> REPLACE` blocks.").claimsComplete).toBe(false);
    expect(analyzeFinalReport(["```", "<<<<<<< SEARCH", "x = 1", "```"].join("\n")).claimsComplete).toBe(false);
  });

  it("blocks followed by a request to confirm going ahead are offered, not delivered, even when a nested fence hides the ask", () => {
    const ask = `To create the README I will provide a block.\n\n${block}\n\nPlease confirm if you would like to proceed with this change.`;
    expect([analyzeFinalReport(ask).claimsComplete, analyzeFinalReport(ask).asksPermission, reportPatternHits(ask).includes("edits.offered")]).toEqual([false, true, true]);
    const nested = ["README.md", "````markdown", "<<<<<<< SEARCH", "=======", "Run it:", "```bash", "npm start", "```", ">>>>>>> REPLACE", "```", "", "Please confirm if you would like to proceed with these changes."].join("\n");
    expect(editBlocks(nested)).toBe("offered");
    // The ask the nested fence hides from the prose reader is still the ending's (docs/decisions/0231).
    expect([analyzeFinalReport(nested).asksPermission, reportPatternHits(nested).includes("permission.edit-consent")]).toEqual([true, true]);
    expect(analyzeFinalReport(`Done.\n\n${block}\n\nThese changes add the flag.`).asksPermission).toBe(false);
    expect(editBlocks(`Done.\n\n${block}\n\nThese changes add the flag.`)).toBe("applied");
    expect(editBlocks("Please confirm if you would like to proceed.")).toBe("none");
  });

  it("reads hostile marker runs to the end: markers out of place, no divider, no closing marker", () => {
    const many = (unit: string): string => unit.repeat(Math.ceil(200_000 / unit.length));
    expect([many("x<<<<<<< SEARCH"), many("<<<<<<< SEARCH\n=======\n"), many("   <<<<<<< SEARCH\n"), many(">>>>>>> REPLACE\n")].map(editBlocks)).toEqual(["none", "none", "none", "none"]);
  });

  it("finds a block after any prefix, and no block in text without all three markers", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        expect(hasEditBlock(`${before}\n${block}\n${after}`)).toBe(true);
        expect(hasEditBlock(`${before}${after}`.replaceAll(">>>>>>> REPLACE", ""))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe("analyzeFinalReport fields", () => {
  it("analyzes a whole report", () => {
    const text = [
      "## **Not finished:** the e2e suite is blocked",
      "",
      "The staging API returns 401 for the token in `.env`, so `npm run e2e` cannot run. Next: set",
      "`STAGING_TOKEN` and rerun it.",
      "",
      "```sh",
      "# Should I proceed?",
      "```",
      "",
      "Evidence",
      "--------",
      "",
      "Unit tests pass (212).",
    ].join("\n");
    expect(analyzeFinalReport(text)).toEqual({
      firstLine: "Not finished: the e2e suite is blocked",
      firstLineRaw: "## **Not finished:** the e2e suite is blocked",
      claimsComplete: false,
      statesUnfinished: true,
      givesReasonAndNext: true,
      asksPermission: false,
      fillerEnding: false,
      headings: ["Not finished: the e2e suite is blocked", "Evidence"],
      chars: text.length,
      tokens: countTokens(text),
      unreadChars: 0,
    });
  });

  it("an empty reply has empty fields", () => {
    expect(analyzeFinalReport("")).toEqual({
      firstLine: "",
      firstLineRaw: "",
      claimsComplete: false,
      statesUnfinished: false,
      givesReasonAndNext: false,
      asksPermission: false,
      fillerEnding: false,
      headings: [],
      chars: 0,
      tokens: 0,
      unreadChars: 0,
    });
  });

  it.each([
    ["# Title #", "Title"],
    ["## C#", "C#"],
    ["**Done:** _all_ ~~three~~ endpoints", "Done: all three endpoints"],
    ["***Bold italic*** text", "Bold italic text"],
    ["snake_case_name and __init__ stay", "snake_case_name and init stay"],
    ["`**kept**` in code, **gone** outside", "`**kept**` in code, gone outside"],
    ["a * b = c", "a * b = c"],
    ["- a list item", "- a list item"],
    ["  ##   Spaced   ", "Spaced"],
  ])("plainLine(%j) = %j", (line, expected) => {
    expect(plainLine(line)).toBe(expected);
  });

  it("a reply that opens as a review claims nothing of what it finds ready (0176)", () => {
    const review = "## Code Review Summary\n\n**Verdict: APPROVE**\n\nThe changes look good.\n\nThe branch is ready to merge.";
    const fields = (text: string) => {
      const { claimsComplete, statesUnfinished } = analyzeFinalReport(text);
      return { claimsComplete, statesUnfinished, review: reportPatternHits(text).includes("review.no-claim") };
    };
    expect([fields(review), fields(`---\n\n${review}`), fields(review.replace("## Code Review Summary\n\n**Verdict: APPROVE**\n\n", ""))]).toEqual([
      { claimsComplete: false, statesUnfinished: false, review: true },
      { claimsComplete: false, statesUnfinished: false, review: true },
      { claimsComplete: true, statesUnfinished: false, review: false },
    ]);
  });

  it("the items under a before-the-change heading are the old state, not progress marks (0177)", () => {
    const reply = (heading: string) => `I've updated the script to handle mixed solutions.\n\n### ${heading}\n- ❌ Exits on any library project\n- ❌ Ignores the application projects\n\n### After\n- ✅ Scans all projects`;
    expect([analyzeFinalReport(reply("Before (Problematic)")).statesUnfinished, analyzeFinalReport(reply("Status")).statesUnfinished]).toEqual([false, true]);
  });

  it("the items of a hypothesis list are not work left; the same items as a status list are (0176)", () => {
    const items = "1. The directories were restored after the commit, OR\n2. The deletion was not committed and is still pending";
    const unfinished = (intro: string) => analyzeFinalReport(`The files show as changed.\n\n${intro}\n\n${items}\n\nWould you like me to help you commit them?`).statesUnfinished;
    expect([unfinished("This suggests either:"), unfinished("It might be:"), unfinished("Status:")]).toEqual([false, false, true]);
  });

  it("a last paragraph made only of menu entries is read with the line above it (0152)", () => {
    const text = "The methodology is saved to `docs/method.md`.\n\nReady for more discussion?\n\n[E] Exit Party Mode - end the session";
    expect([analyzeFinalReport(text).asksPermission, analyzeFinalReport(text.replace("Ready for more discussion?", "Agents have contributed.")).asksPermission]).toEqual([true, false]);
  });

  it("the ending joins the paragraph before a trailing 'Or …' paragraph", () => {
    const text = "Built the release notes.\n\nShould I publish them now? It needs your npm login.\n\nOr do you want to review first";
    expect(analyzeFinalReport(text).asksPermission).toBe(true);
    expect(analyzeFinalReport("Should I publish them now?\n\nThe notes are in `NOTES.md`.").asksPermission).toBe(false);
  });

  it("a list under a line that says what should be done proposes, in the ending as in the opening (0124)", () => {
    const text = "I traced the error to the session store.\n\nTo fix it, the store should be changed to ensure:\n1. The record is written before the clone is created\n2. A failed clone is removed";
    expect([analyzeFinalReport(text).claimsComplete, analyzeFinalReport(text).statesUnfinished]).toEqual([false, false]);
    expect(analyzeFinalReport("I traced the error to the session store.\n\nThe record is written before the clone is created.").claimsComplete).toBe(true);
  });

  it("an ending that leads into the next call with 'we need to …:' is mid-task, so it claims nothing (0124)", () => {
    const text = "I updated the loader, but the path is wrong. We need to point the index at the real file:";
    expect(analyzeFinalReport(text).claimsComplete).toBe(false);
    expect(analyzeFinalReport("I updated the loader. The index points at the real file.").claimsComplete).toBe(true);
  });

  it("a reply cut off leading into its next call: a code-state row is a step under way, leftover work still counts (0124)", () => {
    const step = "The symlink didn't work. Let me check the tasks folder:";
    expect([analyzeFinalReport(step).statesUnfinished, explainFinalReport(step).at(-1)?.id]).toEqual([false, "midtask.no-state"]);
    expect(analyzeFinalReport("The symlink didn't work.").statesUnfinished).toBe(true);
    expect(analyzeFinalReport("Two issues remain. First, let me fix the list test:").statesUnfinished).toBe(true);
  });

  it("a question inside inline code or a fence is not the reply's question", () => {
    expect(analyzeFinalReport("The prompt now ends with `Should I continue?` when the budget is spent.").asksPermission).toBe(false);
    expect(analyzeFinalReport("Template:\n\n```\nShould I continue?\n```").asksPermission).toBe(false);
  });

  it("whether the first line states the unfinished work composes from the fields", () => {
    const first = analyzeFinalReport("Updated the parser.\n\nThe exporter is not done yet because the schema is in review.");
    expect([first.statesUnfinished, analyzeFinalReport(first.firstLine).statesUnfinished]).toEqual([true, false]);
  });

  it("uses an injected TokenCounter", () => {
    const counter = new TokenCounter();
    analyzeFinalReport("Done.", counter);
    analyzeFinalReport("Done.", counter);
    expect(counter.stats()).toEqual({ hits: 1, misses: 1, size: 1 });
  });
});

describe("an answer's unfinished rows describe its subject (docs/decisions/0167)", () => {
  const fields = (text: string) => {
    const result = analyzeFinalReport(text);
    return [result.claimsComplete, result.statesUnfinished];
  };
  it("an answer or a review: what the code or the project lacks is not work left", () => {
    expect(fields("Based on the documents, here's the status:\n\n- The dashboard is currently in progress.\n- Remaining work: the export page.")).toEqual([false, false]);
    expect(fields("I can see you have a repository here, but the push hook is not implemented yet.")).toEqual([false, false]);
    expect(fields("Yes, exactly. The old handler is incomplete, which is why the retry is lost.")).toEqual([false, false]);
    expect(fields("The MCP server partially satisfies the architecture but is incomplete.")).toEqual([false, false]);
    // 0191: a report of what was read.
    expect(fields("I dug through the repo and I've got a solid mental model now.\n\n- Deploy phase is not implemented in runner yet.")).toEqual([false, false]);
  });
  it("the same clauses in a report of the work still leave it unfinished", () => {
    expect(fields("The dashboard is currently in progress.\n\nRemaining work: the export page.")).toEqual([false, true]);
    expect(fields("I updated the handler, but it is not tested yet.")).toEqual([false, true]);
    expect(fields("Here's what I changed: the handler is incomplete; the retry is not wired yet.")).toEqual([false, true]);
    expect(fields("The refactor follows the plan, but the docs are not updated yet.")).toEqual([false, true]);
  });
  it("in an answer, the agent's own work that failed or could not be done still counts", () => {
    expect(fields("Looking at the code, I couldn't run the tests because the database is down.")).toEqual([false, true]);
    expect(fields("Based on the run, the build still fails on the type check.")).toEqual([false, true]);
  });
});

describe("the last step of a turn opens its report (docs/decisions/0167)", () => {
  const edit = "\n\n````\n\n````\n";
  const plan = "The error is caused by passing `undefined` to `suggest`, which expects a string.\n\nChange the call to pass `title ?? \"\"`. This ensures a string is always passed.\n\nThe JSX map callback is also missing a parenthesis.";
  it("the statements after the last announced act are read as the claim zone", () => {
    const result = analyzeFinalReport(`${plan}\n\nI will apply this fix now.${edit}\nThe type error is fixed by passing a string. I also added the missing parenthesis.\n\nYou can reload the page to check it.`);
    expect([result.claimsComplete, result.statesUnfinished]).toEqual([true, false]);
    expect(explainFinalReport(`${plan}\n\nI will apply this fix now.${edit}\nThe type error is fixed by passing a string.\n\nYou can reload the page to check it.`).filter((hit) => hit.group === "complete").map((hit) => hit.clause)).toEqual(["The type error is fixed by passing a string."]);
  });
  it("without an announced act the middle of the reply is not the claim zone", () => {
    const result = analyzeFinalReport(`${plan}\n\nThe type error is fixed by passing a string.\n\nOne more note.\n\nYou can reload the page to check it.`);
    expect(result.claimsComplete).toBe(false);
  });
  it("\"Also, let's add …\" announces an act as \"I will …\" does", () => {
    expect(analyzeFinalReport(`${plan}\n\nAlso, let's add a reference to the README:${edit}\nI've created the documentation for the sync feature.\n\nOne more note.\n\nIt covers the quick start.`).claimsComplete).toBe(true);
  });
  it("a reply that ends on its announced act is cut off mid-task, not a claim", () => {
    expect(analyzeFinalReport(`${plan}\n\nThe type error is fixed.\n\nI will apply this fix now.`).claimsComplete).toBe(false);
  });
});

describe("analyzeFinalReport properties", () => {
  const piece = fc.constantFrom("Done.", "not done", "Should I go on?", "```", "~~~", "`", "# ", "===", "---", "\n", "\n\n", "**", "_", "Or ", "Nothing needed.", "’", "🚀", "\r\n", "<<<<<<< SEARCH\n", "=======\n", ">>>>>>> REPLACE\n", "Please confirm if you would like to proceed.", "[1] Fix it", "(y/n)", "If that doesn't work, ");
  const reply = fc.oneof(fc.string(), fc.array(fc.oneof(piece, fc.string()), { maxLength: 30 }).map((parts) => parts.join("")));

  it("never throws, counts characters, and keeps its invariants", () => {
    fc.assert(
      fc.property(reply, (text) => {
        const result = analyzeFinalReport(text);
        expect(result.chars).toBe(text.length);
        expect(result.claimsComplete && result.statesUnfinished).toBe(false);
        if (result.givesReasonAndNext) expect(result.statesUnfinished).toBe(true);
        expect(result.firstLineRaw === "").toBe(text.trim() === "");
      }),
      { numRuns: 1500 },
    );
  });

  it("a reply wrapped in an unclosed fence has no headings and no judgements", () => {
    fc.assert(
      fc.property(reply, (text) => {
        // An edit block is read from the raw text, fences or not (0153), so the markers are left out here.
        const result = analyzeFinalReport(`${"`".repeat(3 + text.length)}\n${text.replaceAll("<<<<<<< SEARCH", "")}`);
        expect([result.headings, result.claimsComplete, result.statesUnfinished, result.asksPermission, result.fillerEnding]).toEqual([[], false, false, false, false]);
      }),
      { numRuns: 500 },
    );
  });
});

describe("per-clause decisions (docs/decisions/0091)", () => {
  const claim = fc.constantFrom("Done.", "All four changes are in and the checks pass.", "Implemented the exporter.", "CI is green.", "Fixed the parser bug.");
  const leftover = fc.constantFrom("S3 and S4 remain.", "The docs are not done yet.", "Two tests still fail.", "I didn't get to the benchmarks.", "B5 is next.", "Converted 3 of 7 files.", "The migration is pending.");
  const filler = fc.array(fc.constantFrom("The cache is keyed by locale.", "See `src/cache.ts`.", "- one item", "| a | b |", ""), { maxLength: 4 });

  it("a clause saying work remains overrides a completion word anywhere else", () => {
    fc.assert(
      fc.property(claim, leftover, filler, fc.boolean(), (done, left, middle, leftFirst) => {
        const text = (leftFirst ? [left, ...middle, done] : [done, ...middle, left]).join("\n\n");
        const result = analyzeFinalReport(text);
        expect([result.claimsComplete, result.statesUnfinished]).toEqual([false, true]);
      }),
      { numRuns: 400 },
    );
  });

  it("with the handoff's steps, naming a strict subset as done claims none; naming all of them claims the whole", () => {
    const steps = ["B1", "B2", "B3", "B4", "B5", "B6"];
    fc.assert(
      fc.property(fc.subarray(steps, { minLength: 1 }), fc.constantFrom("are done", "are complete", "are finished"), (named, verb) => {
        const text = `${named.join(", ")} ${verb}.`;
        const result = analyzeFinalReport(text, undefined, { steps });
        const whole = named.length === steps.length;
        expect([result.claimsComplete, result.statesUnfinished]).toEqual([whole, !whole]);
      }),
      { numRuns: 300 },
    );
  });

  it("a range names every step in it", () => {
    const steps = ["B1", "B2", "B3", "B4", "B5", "B6"];
    expect([analyzeFinalReport("B1–B6 are done.", undefined, { steps }).claimsComplete, analyzeFinalReport("B1–B3 are done.", undefined, { steps }).claimsComplete, analyzeFinalReport("B1 through B6 are complete.", undefined, { steps }).claimsComplete]).toEqual([true, false, true]);
  });

  it("reads adversarial input to the end: long runs of pattern prefixes, no newlines, unclosed code", () => {
    const runs = ["still ".repeat(20_000), "not ".repeat(20_000), "| ".repeat(40_000), "`".repeat(30_000), "1 of ".repeat(15_000), "if if if fails ".repeat(6_000), "B1-".repeat(20_000)];
    for (const text of runs) expect(analyzeFinalReport(`${text}\n\nDone.`).chars).toBe(text.length + 7);
  });
});

describe("round 7: what a clause says about the work's state (docs/decisions/0195)", () => {
  const fields = (text: string) => {
    const { claimsComplete, statesUnfinished } = analyzeFinalReport(text);
    return { claimsComplete, statesUnfinished };
  };

  it("a failure or a mark its clause places outside the work is not work left; one in the work still is", () => {
    const outside = "The parser is done. We have 12 passing tests and 2 failing tests, both in the existing RingBuffer code (not our new parser).";
    const mark = "Implemented the parser.\n\n- ✅ Parser tests pass\n- ❌ 2 RingBuffer tests fail (pre-existing issues in the RingBuffer implementation)";
    const inside = "The parser is done. We have 12 passing tests and 2 failing tests in the new parser.";
    expect([fields(outside), fields(mark), fields(inside), fields(mark.replace(" (pre-existing issues in the RingBuffer implementation)", ""))]).toEqual([
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: false, statesUnfinished: true },
      { claimsComplete: false, statesUnfinished: true },
    ]);
  });

  it("a test count short of the whole is not work left when the reply places its failures outside the work, and says so in --explain", () => {
    const reply = (why: string) => `The collection is implemented.\n\n- 57 out of 59 tests passing\n\nThe failing tests are ${why}.`;
    const outside = reply("in the existing RingBuffer code and are not related to our new collection");
    expect([fields(outside), explainFinalReport(outside).at(-1)?.id, fields(reply("the two new sorting tests"))]).toEqual([
      { claimsComplete: true, statesUnfinished: false },
      "outside.no-state",
      { claimsComplete: false, statesUnfinished: true },
    ]);
  });

  it("a feature list's steps are the code's behaviour, not the work blocked; what the agent could not do in it still counts", () => {
    const reply = (item: string) => `I've enhanced the disconnect process with:\n\n1. Detailed logging at each step:\n   - Process termination attempt\n   - ${item}\n   - State reset\n\nRun it with \`--verbose\` to see each step.`;
    expect([fields(reply("Waiting for graceful shutdown")), fields(reply("Forced kill (I couldn't test it: no VPN here)")), fields("I've enhanced the disconnect process.\n\nStatus:\n- Waiting for graceful shutdown")]).toEqual([
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: false, statesUnfinished: true },
      { claimsComplete: false, statesUnfinished: true },
    ]);
  });

  it("what a limits section says is not done bounds the scope; a failure under it, or the same line elsewhere, still counts", () => {
    const reply = (heading: string, line: string) => `Implemented the importer for pi v3 sessions.\n\n## ${heading}\n\n${line}`;
    expect([fields(reply("Limitations", "Not checked against v1 sessions.")), fields(reply("Known limitations", "- results are not ranked yet")), fields(reply("Limitations", "The v1 importer still fails on empty files.")), fields(reply("Status", "Not checked against v1 sessions."))]).toEqual([
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: false, statesUnfinished: true },
      { claimsComplete: false, statesUnfinished: true },
    ]);
  });

  it("the report after the last announced act is read when it starts at the fourth statement", () => {
    const text = "The errors come from a duplicate method.\n\nI will remove the duplicate, keeping the documented one.\n\nI will now make this change.\n\nThe duplicate method has been removed from `database.ts`.\n\nIf you have more errors, let me know!";
    expect(fields(text)).toEqual({ claimsComplete: true, statesUnfinished: false });
  });

  it("a label reporting the changes may carry a parenthetical", () => {
    const text = "### Why the button was enabled\nThe results had no linked signal.\n\nSee the dialog below.\n\n### What I changed (so it can't happen anymore)\n- the dialog shows the linked state\n\nRun the flow again to see it.";
    expect([fields(text).claimsComplete, reportPatternHits(text).includes("complete.label")]).toEqual([true, true]);
  });
});

describe("round 7: a reply that opens reporting a tracking document written (docs/decisions/0195)", () => {
  const fields = (text: string) => {
    const { claimsComplete, statesUnfinished } = analyzeFinalReport(text);
    return { claimsComplete, statesUnfinished };
  };
  const body = "\n\nThe key issues it records:\n\n1. Failing tests: the `process` method is not working as expected.\n2. There are several linter errors in `core.py`.\n3. ❌ Docs for the CLI";

  it("the failures, leftovers and marks it lists are the document's content; what the agent could not do still counts", () => {
    expect([
      fields(`I've updated the TODO.md file to reflect the current state of the project.${body}`),
      fields(`The implementation plan has been updated to reflect our progress.${body}`),
      fields(`## Analysis Summary\n\nI've analyzed the codebase and updated both documents to reflect what is done.${body}`),
      fields(`I've updated the TODO.md file to reflect the current state.${body}\n\nI couldn't run the test suite: the database is down.`),
      fields(`I've updated the parser to reflect the new grammar.${body}`),
    ]).toEqual([
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: false, statesUnfinished: true },
      { claimsComplete: false, statesUnfinished: true },
    ]);
    expect(explainFinalReport(`I've updated the TODO.md file to reflect the current state of the project.${body}`).at(-1)?.id).toBe("document.no-state");
  });
});

describe("round 7: where a clause that describes the code stands (docs/decisions/0195)", () => {
  const fields = (text: string) => {
    const { claimsComplete, statesUnfinished } = analyzeFinalReport(text);
    return { claimsComplete, statesUnfinished };
  };
  const opening = "I've added the retry wrapper to the uploader.\n\nIt wraps every request in `withRetry`.\n\nThe wrapper is exported from `net.ts`.";

  it("a body sentence that says the code fails or is not configured describes the code; the same sentence in the opening, the closing, a status line or the agent's own report is the work's state", () => {
    const body = "The old client fails with a 401 on expired tokens, and its fallback cache is incomplete.";
    expect([
      fields(`${opening}\n\n${body}\n\nThe call sites are unchanged.`),
      fields(`${body}\n\n${opening}\n\nThe call sites are unchanged.`),
      fields(`${opening}\n\nThe call sites are unchanged.\n\n${body}`),
      fields(`${opening}\n\n| check | result |\n|---|---|\n| upload | fails with a 401 |\n\nThe call sites are unchanged.`),
      fields(`${opening}\n\nI started adding the token refresh but there's one linter error to fix in \`auth.ts\`.\n\nThe call sites are unchanged.`),
    ]).toEqual([
      { claimsComplete: true, statesUnfinished: false },
      { claimsComplete: false, statesUnfinished: true },
      { claimsComplete: false, statesUnfinished: true },
      { claimsComplete: false, statesUnfinished: true },
      { claimsComplete: false, statesUnfinished: true },
    ]);
  });

  it("rows about the agent's own work still read the whole reply", () => {
    expect(fields(`${opening}\n\nI couldn't run the integration tests because the staging database is down.\n\nThe call sites are unchanged.`)).toEqual({ claimsComplete: false, statesUnfinished: true });
  });
});
