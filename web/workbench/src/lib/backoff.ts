/**
 * backoffDelay is the wait before reconnect attempt n (0-based): base·2ⁿ
 * capped at max, plus up to 20% jitter from rand (so many tabs do not
 * reconnect in lockstep after a server restart).
 */
export function backoffDelay(n: number, base = 250, max = 4000, rand: () => number = Math.random): number {
  const d = Math.min(max, base * 2 ** Math.max(0, n));
  return Math.round(d + d * 0.2 * rand());
}
