import { describe, expect, it } from "vitest";
import { roundsLeftLabel, smoothRoundsLeft } from "./roundsLeft";

describe("smoothRoundsLeft", () => {
  it("turns the issue's jumpy 832 → 54 → 102 into a steady figure", () => {
    const labels: string[] = [];
    let s: number | null = null;
    for (const raw of [832, 54, 102, 95]) {
      s = smoothRoundsLeft(s, raw);
      labels.push(roundsLeftLabel(s));
    }
    expect(labels).toEqual(["More than 100 rounds left", "About 80 rounds left", "About 90 rounds left", "About 90 rounds left"]);
  });

  it("shows a small raw estimate as is, so running out is not averaged away", () => {
    expect(smoothRoundsLeft(60, 2)).toBe(2);
    expect(roundsLeftLabel(1)).toBe("About 1 round left");
  });

  it("ignores nonsense estimates", () => {
    expect(smoothRoundsLeft(12, Number.NaN)).toBe(12);
    expect(smoothRoundsLeft(null, -1)).toBe(0);
  });
});
