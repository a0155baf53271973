// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay } from "./backoff";
import { createCoalescer } from "./coalesce";

describe("createCoalescer", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("typing 10 keys/s sends at most one update per window, and the last state", () => {
    const sent: { t: number; v: string }[] = [];
    const c = createCoalescer<string>(300, (_k, v) => sent.push({ t: Date.now(), v }));
    const start = Date.now();
    let text = "";
    for (let i = 0; i < 30; i++) {
      text += String.fromCharCode(97 + (i % 26));
      c.push("a.ts", text);
      vi.advanceTimersByTime(100);
    }
    vi.advanceTimersByTime(1000);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(3000 / 300) + 1);
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.t - sent[i - 1]!.t).toBeGreaterThanOrEqual(300);
    expect(sent[sent.length - 1]!.v).toBe(text);
    expect(sent[0]!.t - start).toBe(300);
  });

  it("keeps keys apart, flushes and cancels", () => {
    const sent: [string, number][] = [];
    const c = createCoalescer<number>(300, (k, v) => sent.push([k, v]));
    c.push("a", 1);
    c.push("b", 2);
    c.push("a", 3);
    c.flush("a");
    expect(sent).toEqual([["a", 3]]);
    expect(c.pending("b")).toBe(true);
    c.cancel("b");
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([["a", 3]]);
    c.push("c", 4);
    c.flush();
    expect(sent).toEqual([["a", 3], ["c", 4]]);
  });
});

describe("backoffDelay", () => {
  it("doubles up to the cap with bounded jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, 250, 4000, () => 0))).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect(backoffDelay(0, 250, 4000, () => 1)).toBe(300);
  });
});
