/**
 * The final-report analyzer's measured accuracy, generated from fixtures/final-replies by
 * test/core/report/final-replies.test.ts (UPDATE_METRICS=1 rewrites it; a plain run fails when stale).
 * `heldOut` pools the three held-out splits (docs/decisions/0090, 0121, 0123); the report prints it beside
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

export const ANALYZER_ACCURACY: { heldOut: AnalyzerAccuracy; test: AnalyzerAccuracy; test2: AnalyzerAccuracy; test3: AnalyzerAccuracy; dev: AnalyzerAccuracy } = {
  heldOut: { replies: 210, real: 147, fields: {
    claimsComplete: { positives: 100, precision: 0.938, recall: 0.91 },
    statesUnfinished: { positives: 42, precision: 0.8, recall: 0.857 },
    givesReasonAndNext: { positives: 16, precision: 0.786, recall: 0.688 },
    asksPermission: { positives: 40, precision: 0.949, recall: 0.925 },
    fillerEnding: { positives: 7, precision: 1, recall: 0.857 },
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
  test3: { replies: 40, real: 40, fields: {
    claimsComplete: { positives: 17, precision: 0.882, recall: 0.882 },
    statesUnfinished: { positives: 5, precision: 0.25, recall: 0.2 },
    givesReasonAndNext: { positives: 3, precision: null, recall: 0 },
    asksPermission: { positives: 11, precision: 0.909, recall: 0.909 },
    fillerEnding: { positives: 1, precision: null, recall: 0 },
  } },
  dev: { replies: 638, real: 505, fields: {
    claimsComplete: { positives: 367, precision: 0.976, recall: 0.995 },
    statesUnfinished: { positives: 58, precision: 0.933, recall: 0.966 },
    givesReasonAndNext: { positives: 26, precision: 0.958, recall: 0.885 },
    asksPermission: { positives: 136, precision: 1, recall: 0.971 },
    fillerEnding: { positives: 11, precision: 1, recall: 1 },
  } },
};
