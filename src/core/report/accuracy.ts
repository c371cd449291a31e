/**
 * The final-report analyzer's measured accuracy, generated from fixtures/final-replies by
 * test/core/report/final-replies.test.ts (UPDATE_METRICS=1 rewrites it; a plain run fails when stale).
 * The report prints the test-split figures beside the rates they qualify. Do not edit by hand.
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

export const ANALYZER_ACCURACY: { test: AnalyzerAccuracy; dev: AnalyzerAccuracy } = {
  test: { replies: 110, real: 61, fields: {
    claimsComplete: { positives: 47, precision: 0.939, recall: 0.979 },
    statesUnfinished: { positives: 29, precision: 0.848, recall: 0.966 },
    givesReasonAndNext: { positives: 9, precision: 0.692, recall: 1 },
    asksPermission: { positives: 20, precision: 1, recall: 1 },
    fillerEnding: { positives: 5, precision: 1, recall: 1 },
  } },
  dev: { replies: 202, real: 102, fields: {
    claimsComplete: { positives: 105, precision: 0.981, recall: 0.99 },
    statesUnfinished: { positives: 42, precision: 0.955, recall: 1 },
    givesReasonAndNext: { positives: 16, precision: 1, recall: 1 },
    asksPermission: { positives: 45, precision: 1, recall: 0.978 },
    fillerEnding: { positives: 10, precision: 1, recall: 1 },
  } },
};
