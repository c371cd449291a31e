/**
 * The carry screen's tallies (docs/decisions/0243), pure: which field each analyzer row pushes and which way, how many
 * dev repositories a row fires in and in how many of them the labels agree with its push, and the replies whose rows for
 * a field all fire in their own repository only. row-carry.ts reads the dev replies and prints these.
 */

export const CARRY_FIELDS = ["claimsComplete", "statesUnfinished", "givesReasonAndNext", "asksPermission"] as const;
export type CarryField = (typeof CARRY_FIELDS)[number];

/**
 * The field a row feeds and the value it pushes that field towards. A row that counts only beside another field's
 * verdict (reason and next rows need statesUnfinished; continue rows need asksPermission) is scored only on the replies
 * labelled true on `given`: elsewhere it cannot move its field, so its label there says nothing of the row.
 */
export interface RowTarget {
  field: CarryField;
  pushes: boolean;
  given?: CarryField;
}

/** The content notes that take a verdict back (analyze.ts's explainProse): each pushes its field to false. */
const NOTES_AGAINST: Readonly<Record<string, CarryField>> = {
  "review.no-claim": "claimsComplete",
  "findings.no-claim": "statesUnfinished",
  "midtask.no-state": "statesUnfinished",
  "answer.no-state": "statesUnfinished",
  "document.no-state": "statesUnfinished",
  "outside.no-state": "statesUnfinished",
};

/**
 * A row's field and push, from its group (analyze.ts's table of how rows combine): complete rows push claimsComplete to
 * true; unfinished, mark, continue, continueNext and steps rows push statesUnfinished to true; reason and next rows push
 * givesReasonAndNext; permission rows asksPermission. Filler rows, content blocks, edits.offered and the window note feed
 * none of the four: undefined. An unfinished row also pushes claimsComplete to false; only its own field is counted.
 */
export function rowTarget(id: string, group: string): RowTarget | undefined {
  const against = NOTES_AGAINST[id];
  if (against !== undefined) return { field: against, pushes: false };
  if (group === "complete") return { field: "claimsComplete", pushes: true };
  if (group === "continue" || group === "continueNext") return { field: "statesUnfinished", pushes: true, given: "asksPermission" };
  if (group === "unfinished" || group === "mark" || group === "steps") return { field: "statesUnfinished", pushes: true };
  if (group === "reason" || group === "next") return { field: "givesReasonAndNext", pushes: true, given: "statesUnfinished" };
  if (group === "permission") return { field: "asksPermission", pushes: true };
  return undefined;
}

/** One dev reply: its repository (SOURCES.md; written replies are `written`), the row ids that fired, its labels. */
export interface FiredReply {
  file: string;
  repo: string;
  ids: readonly string[];
  labels: Readonly<Record<CarryField, boolean>>;
}

/** How often a row fires in one repository; of those, the replies it is scored on (`given`) and where the label agrees. */
export interface RepoTally {
  fires: number;
  scored: number;
  agree: number;
}

export interface RowCarry {
  id: string;
  target: RowTarget;
  /** Dev replies it fires on. */
  replies: number;
  /** Of those, the replies it is scored on (all, or those labelled true on `given`) … */
  scored: number;
  /** … and of those, the replies whose label for its field agrees with its push. */
  agree: number;
  /** Repository → tally, in the order first seen. */
  repos: Map<string, RepoTally>;
  /** Repositories where the label agrees with the push on more than half the replies the row is scored on there. */
  agreeingRepos: number;
}

/** Every row of `rows` (in order; ids are unique) with a target, tallied over the replies. */
export function carryRows(rows: ReadonlyArray<{ id: string; group: string }>, replies: readonly FiredReply[]): RowCarry[] {
  const out: RowCarry[] = [];
  for (const { id, group } of rows) {
    const target = rowTarget(id, group);
    if (target === undefined) continue;
    const repos = new Map<string, RepoTally>();
    let fires = 0;
    let scored = 0;
    let agree = 0;
    for (const reply of replies) {
      if (!reply.ids.includes(id)) continue;
      const counts = target.given === undefined || reply.labels[target.given];
      const agrees = counts && reply.labels[target.field] === target.pushes;
      const tally = repos.get(reply.repo) ?? { fires: 0, scored: 0, agree: 0 };
      tally.fires += 1;
      fires += 1;
      if (counts) {
        tally.scored += 1;
        scored += 1;
      }
      if (agrees) {
        tally.agree += 1;
        agree += 1;
      }
      repos.set(reply.repo, tally);
    }
    const agreeingRepos = [...repos.values()].filter(agreeing).length;
    out.push({ id, target, replies: fires, scored, agree, repos, agreeingRepos });
  }
  return out;
}

/** A repository whose labels agree with the row's push on more than half the replies it is scored on there. */
function agreeing(tally: RepoTally): boolean {
  return tally.scored > 0 && tally.agree * 2 > tally.scored;
}

export const REPO_BUCKETS = ["0", "1", "2", "≥3"] as const;
export type RepoBucket = (typeof REPO_BUCKETS)[number];

export function repoBucket(repos: number): RepoBucket {
  return repos >= 3 ? "≥3" : (String(repos) as RepoBucket);
}

/** The repositories a row fires in, less `except` (the written replies, when only real projects are to count). */
export function reposOf(row: RowCarry, except?: string): number {
  return row.repos.size - (except !== undefined && row.repos.has(except) ? 1 : 0);
}

/** Per field, how many rows fire in 0, 1, 2 and 3 or more repositories (less `except`). */
export function bucketsByField(rows: readonly RowCarry[], except?: string): Record<CarryField, Record<RepoBucket, number>> {
  const out = Object.fromEntries(CARRY_FIELDS.map((field) => [field, { "0": 0, "1": 0, "2": 0, "≥3": 0 }])) as Record<CarryField, Record<RepoBucket, number>>;
  for (const row of rows) out[row.target.field][repoBucket(reposOf(row, except))] += 1;
  return out;
}

/** Rows that fire in exactly one dev repository: id → that repository. */
export function oneRepoRows(rows: readonly RowCarry[]): Map<string, string> {
  return new Map(rows.filter((row) => row.repos.size === 1).map((row) => [row.id, [...row.repos.keys()][0] as string]));
}

/**
 * Rows that pass the screen a later round could keep: fire in at least `minRepos` repositories (less `except`) where
 * the label agrees with the push on more than half the replies the row fires on there.
 */
export function carryingRows(rows: readonly RowCarry[], minRepos = 2, except?: string): Set<string> {
  const count = (row: RowCarry): number => [...row.repos].filter(([repo, tally]) => repo !== except && agreeing(tally)).length;
  return new Set(rows.filter((row) => count(row) >= minRepos).map((row) => row.id));
}

/**
 * Per field, the replies at least one of whose rows for the field fired and every such row is a one-repository row
 * (so fires in the reply's own repository only): the replies whose reading of the field rests on their own repository's
 * rows. `ownOnly` counts them; `pushedRight` those whose label agrees with the way those rows push (all one way, or
 * mixed: then not counted as right).
 */
export function ownRepoOnly(replies: readonly FiredReply[], targets: ReadonlyMap<string, RowTarget>, oneRepo: ReadonlyMap<string, string>): Record<CarryField, { withRows: number; ownOnly: number; pushedRight: number }> {
  const out = Object.fromEntries(CARRY_FIELDS.map((field) => [field, { withRows: 0, ownOnly: 0, pushedRight: 0 }])) as Record<CarryField, { withRows: number; ownOnly: number; pushedRight: number }>;
  for (const reply of replies) {
    for (const field of CARRY_FIELDS) {
      const ids = [...new Set(reply.ids)].filter((id) => targets.get(id)?.field === field);
      if (ids.length === 0) continue;
      out[field].withRows += 1;
      if (!ids.every((id) => oneRepo.has(id))) continue;
      out[field].ownOnly += 1;
      const pushes = new Set(ids.map((id) => (targets.get(id) as RowTarget).pushes));
      if (pushes.size === 1 && pushes.has(reply.labels[field])) out[field].pushedRight += 1;
    }
  }
  return out;
}

/** TP/FP/FN of one field over verdict–label pairs. */
export function confusion(pairs: ReadonlyArray<{ got: boolean; want: boolean }>): { tp: number; fp: number; fn: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const { got, want } of pairs) {
    if (got && want) tp += 1;
    else if (got && !want) fp += 1;
    else if (!got && want) fn += 1;
  }
  return { tp, fp, fn };
}

/** Reply names that are dev by number: not 3400–3599 (split 12's range, sealed for the next session's look). */
export function outsideSealedRange(file: string): boolean {
  const n = Number(file.slice(0, file.indexOf("-")));
  return !(n >= 3400 && n <= 3599);
}

/** The dev names among `names`: not `blocked` (held-out and sealed splits) and outside 3400–3599; read before any text. */
export function devNames(names: readonly string[], blocked: ReadonlySet<string>): string[] {
  return names.filter((file) => !blocked.has(file) && outsideSealedRange(file));
}
