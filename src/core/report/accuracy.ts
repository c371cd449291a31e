/**
 * The final-report analyzer's measured accuracy, generated from fixtures/final-replies by
 * test/core/report/final-replies.test.ts (UPDATE_METRICS=1 rewrites it; a plain run fails when stale).
 * `heldOut` pools the held-out splits (docs/decisions/0090, 0121, 0123, 0139, 0144, 0148, 0165, 0180, 0215); the report prints it beside
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

export const ANALYZER_ACCURACY: { heldOut: AnalyzerAccuracy; test: AnalyzerAccuracy; test2: AnalyzerAccuracy; test3: AnalyzerAccuracy; test4: AnalyzerAccuracy; test5: AnalyzerAccuracy; test6: AnalyzerAccuracy; test7: AnalyzerAccuracy; test8: AnalyzerAccuracy; test9: AnalyzerAccuracy; dev: AnalyzerAccuracy } = {
  heldOut: { replies: 810, real: 747, fields: {
    claimsComplete: { positives: 448, precision: 0.841, recall: 0.815 },
    statesUnfinished: { positives: 101, precision: 0.533, recall: 0.564 },
    givesReasonAndNext: { positives: 63, precision: 0.457, recall: 0.333 },
    asksPermission: { positives: 186, precision: 0.937, recall: 0.876 },
    fillerEnding: { positives: 19, precision: 1, recall: 0.526 },
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
    statesUnfinished: { positives: 6, precision: 0.5, recall: 0.5 },
    givesReasonAndNext: { positives: 3, precision: 0.667, recall: 0.667 },
    asksPermission: { positives: 12, precision: 1, recall: 1 },
    fillerEnding: { positives: 0, precision: null, recall: null },
  } },
  test5: { replies: 104, real: 104, fields: {
    claimsComplete: { positives: 48, precision: 0.622, recall: 0.479 },
    statesUnfinished: { positives: 9, precision: 0.5, recall: 0.333 },
    givesReasonAndNext: { positives: 7, precision: 0.333, recall: 0.143 },
    asksPermission: { positives: 10, precision: 0.667, recall: 0.6 },
    fillerEnding: { positives: 4, precision: 1, recall: 0.5 },
  } },
  test6: { replies: 142, real: 142, fields: {
    claimsComplete: { positives: 89, precision: 0.872, recall: 0.764 },
    statesUnfinished: { positives: 12, precision: 0.217, recall: 0.417 },
    givesReasonAndNext: { positives: 11, precision: 0.308, recall: 0.364 },
    asksPermission: { positives: 31, precision: 0.968, recall: 0.968 },
    fillerEnding: { positives: 1, precision: null, recall: 0 },
  } },
  test7: { replies: 95, real: 95, fields: {
    claimsComplete: { positives: 69, precision: 0.864, recall: 0.826 },
    statesUnfinished: { positives: 9, precision: 0.231, recall: 0.333 },
    givesReasonAndNext: { positives: 7, precision: 0.125, recall: 0.143 },
    asksPermission: { positives: 27, precision: 0.96, recall: 0.889 },
    fillerEnding: { positives: 2, precision: 1, recall: 0.5 },
  } },
  test8: { replies: 142, real: 142, fields: {
    claimsComplete: { positives: 80, precision: 0.852, recall: 0.938 },
    statesUnfinished: { positives: 15, precision: 0.462, recall: 0.4 },
    givesReasonAndNext: { positives: 9, precision: 0.4, recall: 0.222 },
    asksPermission: { positives: 50, precision: 0.929, recall: 0.78 },
    fillerEnding: { positives: 4, precision: null, recall: 0 },
  } },
  test9: { replies: 67, real: 67, fields: {
    claimsComplete: { positives: 44, precision: 0.8, recall: 0.727 },
    statesUnfinished: { positives: 6, precision: 0, recall: 0 },
    givesReasonAndNext: { positives: 5, precision: 0, recall: 0 },
    asksPermission: { positives: 16, precision: 0.929, recall: 0.813 },
    fillerEnding: { positives: 1, precision: null, recall: 0 },
  } },
  dev: { replies: 1433, real: 1300, fields: {
    claimsComplete: { positives: 816, precision: 0.963, recall: 0.982 },
    statesUnfinished: { positives: 132, precision: 0.897, recall: 0.924 },
    givesReasonAndNext: { positives: 74, precision: 0.79, recall: 0.662 },
    asksPermission: { positives: 347, precision: 0.988, recall: 0.974 },
    fillerEnding: { positives: 33, precision: 1, recall: 0.879 },
  } },
};
