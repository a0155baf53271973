import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { Premise } from "../types";
import { RoundView, scoresFor } from "./RoundView";
import { roundScore } from "./ScoreSlider";

const premises: Premise[] = [
  { id: "p-a", title: "Alpha", body: "First idea", premise_type: "initial" },
  { id: "p-b", title: "Beta", body: "Second idea", premise_type: "radical" },
  { id: "p-c", title: "Gamma", body: "Third idea", premise_type: "combination" },
];

function setup() {
  const onSubmitScores = vi.fn();
  const onResolve = vi.fn();
  render(<RoundView premises={premises} roundNumber={2} onSubmitScores={onSubmitScores} onResolve={onResolve} />);
  return { onSubmitScores, onResolve, user: userEvent.setup() };
}

describe("roundScore", () => {
  it.each([
    [7.46, 7.5],
    [7.44, 7.4],
    [-1, 0],
    [10.2, 10],
    [Number.NaN, 0],
    [0.1 + 0.2, 0.3],
  ])("%f → %f", (v, want) => expect(roundScore(v)).toBe(want));
});

describe("scoresFor", () => {
  it("is null until every premise is scored", () => {
    expect(scoresFor(premises, { "p-a": 1, "p-b": 2 }, {})).toBeNull();
    expect(scoresFor([], {}, {})).toBeNull();
  });
  it("sends scores by premise id with trimmed comments", () => {
    expect(scoresFor(premises, { "p-a": 1, "p-b": 0, "p-c": 10 }, { "p-b": "  meh ", "p-c": "  " })).toEqual([
      { premise_id: "p-a", premise_title: "Alpha", score: 1 },
      { premise_id: "p-b", premise_title: "Beta", score: 0, comment: "meh" },
      { premise_id: "p-c", premise_title: "Gamma", score: 10 },
    ]);
  });
});

describe("RoundView", () => {
  it("renders three premise cards with sliders from 0 to 10 in steps of 0.1", () => {
    setup();
    expect(screen.getByRole("heading", { name: "Round 2" })).toBeTruthy();
    const sliders = screen.getAllByRole("slider");
    expect(sliders).toHaveLength(3);
    for (const s of sliders) {
      expect(s.getAttribute("min")).toBe("0");
      expect(s.getAttribute("max")).toBe("10");
      expect(s.getAttribute("step")).toBe("0.1");
      expect(s.getAttribute("aria-valuetext")).toBe("not scored yet");
    }
  });

  it("enables Next Round only when all premises are scored, then sends scores by id", async () => {
    const { onSubmitScores, user } = setup();
    const next = screen.getByRole("button", { name: "Next Round →" });
    expect(next).toBeDisabled();
    expect(screen.getByText("Score 3 more premises to continue.")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Score for “Alpha”"), { target: { value: "7.3" } });
    fireEvent.change(screen.getByLabelText("Score for “Beta”"), { target: { value: "2" } });
    expect(next).toBeDisabled();
    expect(screen.getByText("Score 1 more premise to continue.")).toBeTruthy();

    // The number box is the keyboard-friendly way to give an exact score.
    await user.type(screen.getByLabelText("Score for “Gamma” (number)"), "9.5");
    expect(screen.getByLabelText("Score for “Gamma”").getAttribute("aria-valuetext")).toBe("9.5 out of 10");
    await user.type(screen.getByRole("textbox", { name: "Comment on “Beta” (optional)" }), "too safe");
    expect(next).toBeEnabled();
    await user.click(next);
    expect(onSubmitScores).toHaveBeenCalledWith([
      { premise_id: "p-a", premise_title: "Alpha", score: 7.3 },
      { premise_id: "p-b", premise_title: "Beta", score: 2, comment: "too safe" },
      { premise_id: "p-c", premise_title: "Gamma", score: 9.5 },
    ]);
  });

  it("picks the winner index 0–2 in the Problem Resolved picker", async () => {
    const { onResolve, user } = setup();
    fireEvent.change(screen.getByLabelText("Score for “Gamma”"), { target: { value: "8" } });
    await user.click(screen.getByRole("button", { name: "✓ Problem Resolved" }));
    const picker = screen.getByRole("group", { name: "Which premise solves your problem?" });
    const generate = within(picker).getByRole("button", { name: "Generate final spec" });
    expect(generate).toBeDisabled();
    expect(within(picker).getAllByRole("radio")).toHaveLength(3);
    expect(within(picker).getByText("(8.0)")).toBeTruthy();
    await user.click(within(picker).getByRole("radio", { name: /Gamma/ }));
    await user.click(generate);
    expect(onResolve).toHaveBeenCalledWith(2, { "p-c": 8 });
  });

  it("cancels the picker", async () => {
    const { onResolve, user } = setup();
    await user.click(screen.getByRole("button", { name: "✓ Problem Resolved" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("group", { name: "Which premise solves your problem?" })).toBeNull();
    expect(onResolve).not.toHaveBeenCalled();
  });

  it("disables its actions while a turn runs", () => {
    render(<RoundView premises={premises} roundNumber={1} onSubmitScores={vi.fn()} onResolve={vi.fn()} busy />);
    expect(screen.getByRole("button", { name: "✓ Problem Resolved" })).toBeDisabled();
    for (const s of screen.getAllByRole("slider")) expect(s).toBeDisabled();
  });
});
