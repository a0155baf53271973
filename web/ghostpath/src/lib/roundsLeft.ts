// Smoothing of the server's "estimated rounds left", which jumps from round to round.

/** ROUNDS_CAP bounds one estimate: beyond it the figure says nothing useful ("more than 100"). */
export const ROUNDS_CAP = 100;
/** ALPHA is the weight of the newest estimate in the moving average. */
export const ALPHA = 0.4;
/** URGENT: at or below this raw estimate the raw figure is shown (running out must not be averaged away). */
export const URGENT = 3;

/**
 * smoothRoundsLeft folds the newest server estimate into the previous smoothed value:
 * each estimate is capped at ROUNDS_CAP, then averaged exponentially (ALPHA); a raw
 * estimate at or below URGENT is taken as is. prev is null before the first estimate.
 */
export function smoothRoundsLeft(prev: number | null, raw: number): number {
  if (!Number.isFinite(raw) || raw < 0) return prev ?? 0;
  const capped = Math.min(raw, ROUNDS_CAP);
  if (raw <= URGENT || prev === null) return capped;
  return prev * (1 - ALPHA) + capped * ALPHA;
}

/** roundsLeftLabel says the smoothed estimate in words: exact when small, to the nearest 10 when large. */
export function roundsLeftLabel(smoothed: number): string {
  if (smoothed >= ROUNDS_CAP) return `More than ${ROUNDS_CAP} rounds left`;
  const n = smoothed > 20 ? Math.round(smoothed / 10) * 10 : Math.round(smoothed);
  return `About ${n.toLocaleString("en-US")} round${n === 1 ? "" : "s"} left`;
}

/** ROUNDS_LEFT_HELP explains the estimate (shown on hover and to screen readers). */
export const ROUNDS_LEFT_HELP =
  "Estimated from the tokens still free in the model's context window and the tokens recent rounds used. " +
  "Rounds differ in size, so the figure is averaged over the last rounds; it is a guide, not a limit.";
