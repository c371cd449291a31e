/**
 * The final-report analyzer's measured accuracy, generated from fixtures/final-replies by
 * test/core/report/final-replies.test.ts (UPDATE_METRICS=1 rewrites it; a plain run fails when stale).
 * `heldOut` pools the two held-out splits (docs/decisions/0090, 0121); the report prints it beside
 * the rates it qualifies. Do not edit by hand.
 */
export interface FieldAccuracy {
  positives: number;
  precision: number | null;
  recall: number | null;
}

export interface AnalyzerAccuracy {
  replies: number;
  real: number;
  fields: Record<"claimsComplete" | "statesUnfinished" | "givesReasonAndNext" | "asksPermission" | "fillerEnding", FieldAccuracy>;
}

export const ANALYZER_ACCURACY: { heldOut: AnalyzerAccuracy; test: AnalyzerAccuracy; test2: AnalyzerAccuracy; dev: AnalyzerAccuracy } = {
  heldOut: { replies: 170, real: 107, fields: {
    claimsComplete: { positives: 83, precision: 0.95, recall: 0.916 },
    statesUnfinished: { positives: 37, precision: 0.854, recall: 0.946 },
    givesReasonAndNext: { positives: 13, precision: 0.786, recall: 0.846 },
    asksPermission: { positives: 29, precision: 0.964, recall: 0.931 },
    fillerEnding: { positives: 6, precision: 1, recall: 1 },
  } },
  test: { replies: 110, real: 61, fields: {
    claimsComplete: { positives: 47, precision: 0.939, recall: 0.979 },
    statesUnfinished: { positives: 29, precision: 0.933, recall: 0.966 },
    givesReasonAndNext: { positives: 9, precision: 0.9, recall: 1 },
    asksPermission: { positives: 20, precision: 0.952, recall: 1 },
    fillerEnding: { positives: 5, precision: 1, recall: 1 },
  } },
  test2: { replies: 60, real: 46, fields: {
    claimsComplete: { positives: 36, precision: 0.968, recall: 0.833 },
    statesUnfinished: { positives: 8, precision: 0.636, recall: 0.875 },
    givesReasonAndNext: { positives: 4, precision: 0.5, recall: 0.5 },
    asksPermission: { positives: 9, precision: 1, recall: 0.778 },
    fillerEnding: { positives: 1, precision: 1, recall: 1 },
  } },
  dev: { replies: 584, real: 451, fields: {
    claimsComplete: { positives: 345, precision: 0.974, recall: 0.994 },
    statesUnfinished: { positives: 53, precision: 0.93, recall: 1 },
    givesReasonAndNext: { positives: 22, precision: 1, recall: 1 },
    asksPermission: { positives: 120, precision: 1, recall: 0.975 },
    fillerEnding: { positives: 11, precision: 1, recall: 1 },
  } },
};
