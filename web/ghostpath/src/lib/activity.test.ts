import { describe, expect, it } from "vitest";
import { toolLabel } from "../components/AgentActivityIndicator";
import type { ActivityItem } from "../state/session";
import { bounceText, narrate } from "./activity";

describe("narrate", () => {
  it("folds a bounce into the call it answers and skips plain results", () => {
    const a: ActivityItem[] = [
      { seq: 1, kind: "call", tool: "obviousness_test", text: "" },
      { seq: 2, kind: "result", tool: "", text: '{"ok":true}' },
      { seq: 3, kind: "call", tool: "generate_premise", text: "" },
      { seq: 4, kind: "error", tool: "generate_premise", code: "UNTESTED_PREMISES", text: "x", guardrail: true },
    ];
    expect(narrate(a, toolLabel)).toEqual([
      { seq: 1, kind: "call", text: "Testing obviousness", detail: "obviousness_test" },
      { seq: 4, kind: "bounce", text: "Generating a premise: premises not checked for obviousness yet, checking", detail: "generate_premise UNTESTED_PREMISES" },
    ]);
  });

  it("reads a TOO_OBVIOUS result as 'premise too obvious, regenerating'", () => {
    const a: ActivityItem[] = [
      { seq: 1, kind: "call", tool: "obviousness_test", text: "" },
      { seq: 2, kind: "result", tool: "", text: "TOO_OBVIOUS: score 0.8" },
    ];
    expect(narrate(a, toolLabel).map((s) => s.text)).toEqual(["Testing obviousness: premise too obvious, regenerating"]);
  });

  it("shows a rejection the server words for people as the bounce, in its own words", () => {
    const sentence = "Checked obviousness: the premise was too obvious and was dropped; the agent is generating a better one.";
    const a: ActivityItem[] = [
      { seq: 1, kind: "call", tool: "obviousness_test", text: "" },
      { seq: 2, kind: "result", tool: "", text: sentence },
      { seq: 3, kind: "result", tool: "", text: '{"note":"dropped"}' },
    ];
    expect(narrate(a, toolLabel)).toEqual([{ seq: 2, kind: "bounce", text: sentence, detail: "obviousness_test" }]);
  });

  it("keeps an error for another tool as its own step", () => {
    const a: ActivityItem[] = [
      { seq: 1, kind: "call", tool: "decompose_problem", text: "" },
      { seq: 2, kind: "error", tool: "present_round", code: "INCOMPLETE_ROUND", text: "", guardrail: true },
    ];
    expect(narrate(a, toolLabel).map((s) => s.text)).toEqual(["Decomposing the problem", "Presenting the round: round not complete yet, adding premises"]);
  });

  it("falls back to the server's human message for unknown codes", () => {
    expect(bounceText("NEW_CODE", "The agent sent a malformed premise.")).toBe("The agent sent a malformed premise., correcting");
    expect(bounceText(undefined, "")).toBe("tool rejected the call, correcting");
  });
});
