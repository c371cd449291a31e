/**
 * The final-report analyzer's measured accuracy, generated from fixtures/final-replies by
 * test/core/report/final-replies.test.ts (UPDATE_METRICS=1 rewrites it; a plain run fails when stale).
 * `heldOut` pools the held-out splits (docs/decisions/0090, 0121, 0123, 0139, 0144, 0148, 0165, 0223, 0228, 0240); the report prints it beside
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

export const ANALYZER_ACCURACY: { heldOut: AnalyzerAccuracy; test: AnalyzerAccuracy; test2: AnalyzerAccuracy; test3: AnalyzerAccuracy; test4: AnalyzerAccuracy; test5: AnalyzerAccuracy; test6: AnalyzerAccuracy; test7: AnalyzerAccuracy; test10: AnalyzerAccuracy; test11: AnalyzerAccuracy; test12: AnalyzerAccuracy; dev: AnalyzerAccuracy } = {
  heldOut: { replies: 927, real: 864, fields: {
    claimsComplete: { positives: 491, precision: 0.835, recall: 0.786 },
    statesUnfinished: { positives: 114, precision: 0.426, recall: 0.605 },
    givesReasonAndNext: { positives: 76, precision: 0.382, recall: 0.382 },
    asksPermission: { positives: 236, precision: 0.946, recall: 0.818 },
    fillerEnding: { positives: 18, precision: 1, recall: 0.611 },
  } },
  test: { replies: 110, real: 61, fields: {
    claimsComplete: { positives: 48, precision: 0.959, recall: 0.979 },
    statesUnfinished: { positives: 31, precision: 0.933, recall: 0.903 },
    givesReasonAndNext: { positives: 14, precision: 0.9, recall: 0.643 },
    asksPermission: { positives: 20, precision: 0.952, recall: 1 },
    fillerEnding: { positives: 5, precision: 1, recall: 1 },
  } },
  test2: { replies: 60, real: 46, fields: {
    claimsComplete: { positives: 36, precision: 0.941, recall: 0.889 },
    statesUnfinished: { positives: 8, precision: 0.778, recall: 0.875 },
    givesReasonAndNext: { positives: 4, precision: 0.667, recall: 0.5 },
    asksPermission: { positives: 9, precision: 1, recall: 0.889 },
    fillerEnding: { positives: 1, precision: 1, recall: 1 },
  } },
  test3: { replies: 40, real: 40, fields: {
    claimsComplete: { positives: 17, precision: 0.842, recall: 0.941 },
    statesUnfinished: { positives: 5, precision: 0.5, recall: 0.4 },
    givesReasonAndNext: { positives: 3, precision: null, recall: 0 },
    asksPermission: { positives: 11, precision: 0.917, recall: 1 },
    fillerEnding: { positives: 1, precision: 1, recall: 1 },
  } },
  test4: { replies: 50, real: 50, fields: {
    claimsComplete: { positives: 17, precision: 0.652, recall: 0.882 },
    statesUnfinished: { positives: 6, precision: 0.571, recall: 0.667 },
    givesReasonAndNext: { positives: 3, precision: 0.75, recall: 1 },
    asksPermission: { positives: 12, precision: 1, recall: 1 },
    fillerEnding: { positives: 0, precision: null, recall: null },
  } },
  test5: { replies: 104, real: 104, fields: {
    claimsComplete: { positives: 48, precision: 0.622, recall: 0.479 },
    statesUnfinished: { positives: 9, precision: 0.5, recall: 0.333 },
    givesReasonAndNext: { positives: 7, precision: 0.333, recall: 0.143 },
    asksPermission: { positives: 10, precision: 0.6, recall: 0.6 },
    fillerEnding: { positives: 4, precision: 1, recall: 0.5 },
  } },
  test6: { replies: 142, real: 142, fields: {
    claimsComplete: { positives: 89, precision: 0.873, recall: 0.775 },
    statesUnfinished: { positives: 12, precision: 0.227, recall: 0.417 },
    givesReasonAndNext: { positives: 11, precision: 0.308, recall: 0.364 },
    asksPermission: { positives: 31, precision: 0.968, recall: 0.968 },
    fillerEnding: { positives: 1, precision: null, recall: 0 },
  } },
  test7: { replies: 95, real: 95, fields: {
    claimsComplete: { positives: 69, precision: 0.877, recall: 0.826 },
    statesUnfinished: { positives: 9, precision: 0.286, recall: 0.444 },
    givesReasonAndNext: { positives: 7, precision: 0.125, recall: 0.143 },
    asksPermission: { positives: 27, precision: 0.96, recall: 0.889 },
    fillerEnding: { positives: 2, precision: 1, recall: 0.5 },
  } },
  test10: { replies: 101, real: 101, fields: {
    claimsComplete: { positives: 54, precision: 0.92, recall: 0.852 },
    statesUnfinished: { positives: 9, precision: 0.455, recall: 0.556 },
    givesReasonAndNext: { positives: 8, precision: 1, recall: 0.125 },
    asksPermission: { positives: 33, precision: 0.917, recall: 0.667 },
    fillerEnding: { positives: 2, precision: 1, recall: 0.5 },
  } },
  test11: { replies: 124, real: 124, fields: {
    claimsComplete: { positives: 61, precision: 0.789, recall: 0.738 },
    statesUnfinished: { positives: 10, precision: 0.1, recall: 0.3 },
    givesReasonAndNext: { positives: 6, precision: 0.125, recall: 0.333 },
    asksPermission: { positives: 33, precision: 1, recall: 0.576 },
    fillerEnding: { positives: 1, precision: null, recall: 0 },
  } },
  test12: { replies: 101, real: 101, fields: {
    claimsComplete: { positives: 52, precision: 0.735, recall: 0.692 },
    statesUnfinished: { positives: 15, precision: 0.276, recall: 0.533 },
    givesReasonAndNext: { positives: 13, precision: 0.333, recall: 0.462 },
    asksPermission: { positives: 50, precision: 0.976, recall: 0.82 },
    fillerEnding: { positives: 1, precision: null, recall: 0 },
  } },
  dev: { replies: 1642, real: 1509, fields: {
    claimsComplete: { positives: 940, precision: 0.951, recall: 0.979 },
    statesUnfinished: { positives: 153, precision: 0.898, recall: 0.922 },
    givesReasonAndNext: { positives: 88, precision: 0.797, recall: 0.716 },
    asksPermission: { positives: 413, precision: 0.988, recall: 0.998 },
    fillerEnding: { positives: 38, precision: 1, recall: 0.763 },
  } },
};
