/**
 * The final-report analyzer's measured accuracy, generated from fixtures/final-replies by
 * test/core/report/final-replies.test.ts (UPDATE_METRICS=1 rewrites it; a plain run fails when stale).
 * `heldOut` pools the held-out splits (docs/decisions/0090, 0121, 0123, 0139, 0144, 0148); the report prints it beside
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

export const ANALYZER_ACCURACY: { heldOut: AnalyzerAccuracy; test: AnalyzerAccuracy; test2: AnalyzerAccuracy; test3: AnalyzerAccuracy; test4: AnalyzerAccuracy; test5: AnalyzerAccuracy; test6: AnalyzerAccuracy; dev: AnalyzerAccuracy } = {
  heldOut: { replies: 506, real: 443, fields: {
    claimsComplete: { positives: 254, precision: 0.852, recall: 0.772 },
    statesUnfinished: { positives: 69, precision: 0.558, recall: 0.696 },
    givesReasonAndNext: { positives: 37, precision: 0.559, recall: 0.514 },
    asksPermission: { positives: 93, precision: 0.935, recall: 0.925 },
    fillerEnding: { positives: 12, precision: 1, recall: 0.75 },
  } },
  test: { replies: 110, real: 61, fields: {
    claimsComplete: { positives: 47, precision: 0.939, recall: 0.979 },
    statesUnfinished: { positives: 29, precision: 0.933, recall: 0.966 },
    givesReasonAndNext: { positives: 9, precision: 0.9, recall: 1 },
    asksPermission: { positives: 20, precision: 0.952, recall: 1 },
    fillerEnding: { positives: 5, precision: 1, recall: 1 },
  } },
  test2: { replies: 60, real: 46, fields: {
    claimsComplete: { positives: 36, precision: 0.938, recall: 0.833 },
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
    claimsComplete: { positives: 48, precision: 0.639, recall: 0.479 },
    statesUnfinished: { positives: 9, precision: 0.571, recall: 0.444 },
    givesReasonAndNext: { positives: 7, precision: 0.5, recall: 0.286 },
    asksPermission: { positives: 10, precision: 0.667, recall: 0.6 },
    fillerEnding: { positives: 4, precision: 1, recall: 0.5 },
  } },
  test6: { replies: 142, real: 142, fields: {
    claimsComplete: { positives: 89, precision: 0.892, recall: 0.742 },
    statesUnfinished: { positives: 12, precision: 0.185, recall: 0.417 },
    givesReasonAndNext: { positives: 11, precision: 0.308, recall: 0.364 },
    asksPermission: { positives: 31, precision: 0.968, recall: 0.968 },
    fillerEnding: { positives: 1, precision: null, recall: 0 },
  } },
  dev: { replies: 1205, real: 1072, fields: {
    claimsComplete: { positives: 687, precision: 0.956, recall: 0.959 },
    statesUnfinished: { positives: 116, precision: 0.803, recall: 0.845 },
    givesReasonAndNext: { positives: 63, precision: 0.745, recall: 0.651 },
    asksPermission: { positives: 281, precision: 0.989, recall: 0.964 },
    fillerEnding: { positives: 33, precision: 1, recall: 0.879 },
  } },
};
