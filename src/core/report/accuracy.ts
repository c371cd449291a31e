/**
 * The final-report analyzer's measured accuracy, generated from fixtures/final-replies by
 * test/core/report/final-replies.test.ts (UPDATE_METRICS=1 rewrites it; a plain run fails when stale).
 * `heldOut` pools the held-out splits (docs/decisions/0090, 0121, 0123, 0139, 0144); the report prints it beside
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

export const ANALYZER_ACCURACY: { heldOut: AnalyzerAccuracy; test: AnalyzerAccuracy; test2: AnalyzerAccuracy; test3: AnalyzerAccuracy; test4: AnalyzerAccuracy; test5: AnalyzerAccuracy; dev: AnalyzerAccuracy } = {
  heldOut: { replies: 364, real: 301, fields: {
    claimsComplete: { positives: 165, precision: 0.84, recall: 0.794 },
    statesUnfinished: { positives: 57, precision: 0.754, recall: 0.754 },
    givesReasonAndNext: { positives: 26, precision: 0.714, recall: 0.577 },
    asksPermission: { positives: 62, precision: 0.918, recall: 0.903 },
    fillerEnding: { positives: 11, precision: 1, recall: 0.727 },
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
    asksPermission: { positives: 9, precision: 1, recall: 0.889 },
    fillerEnding: { positives: 1, precision: 1, recall: 1 },
  } },
  test3: { replies: 40, real: 40, fields: {
    claimsComplete: { positives: 17, precision: 0.889, recall: 0.941 },
    statesUnfinished: { positives: 5, precision: 0.333, recall: 0.2 },
    givesReasonAndNext: { positives: 3, precision: null, recall: 0 },
    asksPermission: { positives: 11, precision: 0.909, recall: 0.909 },
    fillerEnding: { positives: 1, precision: 1, recall: 1 },
  } },
  test4: { replies: 50, real: 50, fields: {
    claimsComplete: { positives: 17, precision: 0.714, recall: 0.882 },
    statesUnfinished: { positives: 6, precision: 0.375, recall: 0.5 },
    givesReasonAndNext: { positives: 3, precision: 0.667, recall: 0.667 },
    asksPermission: { positives: 12, precision: 1, recall: 1 },
    fillerEnding: { positives: 0, precision: null, recall: null },
  } },
  test5: { replies: 104, real: 104, fields: {
    claimsComplete: { positives: 48, precision: 0.649, recall: 0.5 },
    statesUnfinished: { positives: 9, precision: 0.8, recall: 0.444 },
    givesReasonAndNext: { positives: 7, precision: 0.5, recall: 0.286 },
    asksPermission: { positives: 10, precision: 0.667, recall: 0.6 },
    fillerEnding: { positives: 4, precision: 1, recall: 0.25 },
  } },
  dev: { replies: 882, real: 749, fields: {
    claimsComplete: { positives: 461, precision: 0.97, recall: 0.987 },
    statesUnfinished: { positives: 79, precision: 0.875, recall: 0.975 },
    givesReasonAndNext: { positives: 41, precision: 0.914, recall: 0.78 },
    asksPermission: { positives: 211, precision: 0.99, recall: 0.981 },
    fillerEnding: { positives: 23, precision: 1, recall: 0.913 },
  } },
};
