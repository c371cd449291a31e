/** "Did you mean …?" for a mistyped name: the known name at most two edits away, nearest first. */

/** The known name nearest to `typed` within two edits (a swap of neighbours is one), or null. */
export function nearestName(typed: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    if (name === typed) continue;
    const distance = editDistance(typed, name);
    if (distance <= 2 && (best === null || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min(up[j] as number, row[j - 1] as number) + 1;
      row[j] = Math.min(row[j] as number, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The known name a mistyped one was likely meant to be, for config messages: as `nearestName`, but
 * only within a third of the typed name's length (one edit from three letters; none below), so
 * `outro` suggests nothing rather than `intro`, while `reportng` still finds `reporting`.
 */
export function likelyMeant(typed: string, known: readonly string[]): string | null {
  const near = nearestName(typed, known);
  return near !== null && typed.length >= 3 && editDistance(typed, near) <= Math.max(1, Math.floor(typed.length / 3)) ? near : null;
}
