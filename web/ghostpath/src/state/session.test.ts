import { describe, expect, it } from "vitest";
import type { StreamEvent } from "../types";
import { type Action, MAX_ACTIVITY, MAX_TOOL_ERRORS, currentRound, initialView, reduce, roundsFromRecords, STOPPED } from "./session";

const ev = (event: StreamEvent): Action => ({ kind: "event", event });
const run = (...actions: Action[]) => actions.reduce(reduce, initialView);

const round1 = [
  { id: "a", title: "A", body: "a", premise_type: "initial" },
  { id: "b", title: "B", body: "b", premise_type: "initial" },
  { id: "c", title: "C", body: "c", premise_type: "initial" },
];

describe("reduce", () => {
  it("follows a first turn to a presented round", () => {
    const v = run(
      { kind: "turn_started" },
      ev({ type: "context_usage", data: { tokens_used: 1200, tokens_limit: 1_000_000, tokens_remaining: 998_800, usage_percentage: 0.12, estimated_rounds_left: 999 } }),
      ev({ type: "agent_text", data: "Let me look at this." }),
      ev({ type: "tool_call", data: { tool: "generate_premise", input_preview: "{'title': 'x'}" } }),
      ev({ type: "tool_error", data: { tool: "generate_premise", error_code: "GATES_NOT_SATISFIED", message: "Missing gates" } }),
      ev({ type: "tool_call", data: { tool: "decompose_problem" } }),
      ev({ type: "tool_result", data: "Web search returned 3 result(s)" }),
      ev({ type: "premises", data: round1 }),
      ev({ type: "done", data: { error: false, awaiting_input: true } }),
    );
    expect(v.phase).toBe("awaiting");
    expect(v.pending).toBe("scores");
    expect(v.agentText).toEqual(["Let me look at this."]);
    expect(v.context?.tokens_used).toBe(1200);
    expect(v.activity.map((a) => [a.kind, a.tool, a.code ?? ""])).toEqual([
      ["call", "generate_premise", ""],
      ["error", "generate_premise", "GATES_NOT_SATISFIED"],
      ["call", "decompose_problem", ""],
      ["result", "", ""],
    ]);
    expect(v.activity[1]!.text).toBe("Missing gates");
    expect(v.rounds).toHaveLength(1);
    expect(currentRound(v)).toMatchObject({ number: 1, scores: {} });
    expect(currentRound(v)!.premises.map((p) => p.id)).toEqual(["a", "b", "c"]);
  });

  it("records scores by premise id, then an ask_user, then round 2 and a winner", () => {
    let v = run(ev({ type: "premises", data: round1 }), ev({ type: "done", data: { awaiting_input: true } }));
    v = reduce(v, { kind: "scores_sent", scores: [
      { premise_id: "a", premise_title: "A", score: 7.5, comment: "nice" },
      { premise_id: "b", premise_title: "B", score: 2 },
      { premise_id: "c", premise_title: "C", score: 5 },
    ] });
    v = reduce(v, { kind: "turn_started" });
    expect(v.phase).toBe("streaming");
    v = reduce(v, ev({ type: "ask_user", data: { question: "Q?", options: [{ label: "yes" }, { label: "no" }] } }));
    v = reduce(v, ev({ type: "done", data: { awaiting_input: true } }));
    expect(v.pending).toBe("ask_user");
    expect(v.askUser?.question).toBe("Q?");
    expect(v.rounds[0]!.scores).toEqual({ a: { score: 7.5, comment: "nice" }, b: { score: 2 }, c: { score: 5 } });

    v = reduce(v, { kind: "turn_started" });
    v = reduce(v, ev({ type: "premises", data: round1.map((p) => ({ ...p, id: p.id + "2", title: p.title + "2" })) }));
    expect(v.pending).toBe("scores");
    expect(v.askUser).toBeNull();
    expect(v.rounds.map((r) => r.number)).toEqual([1, 2]);
    v = reduce(v, { kind: "resolved_sent", index: 2 });
    expect(v.rounds[1]!.winnerId).toBe("c2");
    expect(v.rounds[0]!.winnerId).toBeUndefined();
  });

  it("does not duplicate a round a resumed stream re-sends", () => {
    const v = run(ev({ type: "premises", data: round1 }), { kind: "turn_started" }, ev({ type: "premises", data: round1 }));
    expect(v.rounds).toHaveLength(1);
  });

  it("takes the round number from the premises when given", () => {
    const v = run(ev({ type: "premises", data: round1.map((p) => ({ ...p, round_number: 4 })) }));
    expect(currentRound(v)!.number).toBe(4);
  });

  it("finishes with the final spec and its download URL (spec_file_ready before done)", () => {
    const v = run(
      ev({ type: "premises", data: round1 }),
      { kind: "turn_started" },
      ev({ type: "agent_text", data: "Excellent choice!" }),
      ev({ type: "final_spec", data: "# Spec" }),
      ev({ type: "spec_file_ready", data: { download_url: "/api/v1/sessions/s1/spec" } }),
      ev({ type: "done", data: { error: false, awaiting_input: true } }),
    );
    expect(v.spec).toBe("# Spec");
    expect(v.specUrl).toBe("/api/v1/sessions/s1/spec");
    expect(v.pending).toBeNull();
    expect(v.phase).toBe("finished");
  });

  it("shows system errors and a failed turn", () => {
    const v = run(
      { kind: "turn_started" },
      ev({ type: "error", data: { code: "AGENT_LOOP_EXCEEDED", message: "50 iterations", severity: "critical", recoverable: false } }),
      ev({ type: "done", data: { error: true, awaiting_input: false } }),
    );
    expect(v.phase).toBe("failed");
    expect(v.error).toEqual({ code: "AGENT_LOOP_EXCEEDED", message: "50 iterations" });
    expect(reduce(v, { kind: "turn_started" }).error).toBeNull();
  });

  it("ends a cancelled run for good", () => {
    const v = run(
      ev({ type: "premises", data: round1 }),
      { kind: "turn_started" },
      ev({ type: "error", data: { code: "INVALID_SESSION_STATE", message: "Session is cancelled" } }),
      ev({ type: "done", data: { error: true, awaiting_input: false, cancelled: true } }),
    );
    expect(v.phase).toBe("failed");
    expect(v.pending).toBeNull();
    expect(v.error).toEqual({ code: "CANCELLED", message: "The session was cancelled." });
  });

  it("keeps the pending prompt when sending input fails, so it can be retried", () => {
    const v = run(ev({ type: "premises", data: round1 }), ev({ type: "done", data: { awaiting_input: true } }), { kind: "turn_started" }, {
      kind: "stream_failed",
      message: "scores: want exactly 3",
      code: "VALIDATION_ERROR",
    });
    expect(v.phase).toBe("failed");
    expect(v.pending).toBe("scores");
    expect(v.error?.code).toBe("VALIDATION_ERROR");
  });

  it("goes idle without a pending prompt when a turn ends without awaiting input", () => {
    const v = run(ev({ type: "premises", data: round1 }), { kind: "turn_started" }, ev({ type: "done", data: { awaiting_input: false } }));
    expect(v.phase).toBe("idle");
  });

  it("bounds the activity list to the most recent items but keeps tool errors apart", () => {
    const actions = Array.from({ length: MAX_ACTIVITY + 5 }, (_, i) => ev({ type: "tool_call", data: { tool: `t${i}` } }));
    const v = run(ev({ type: "tool_error", data: { tool: "x", error_code: "E1", message: "m" } }), ...actions);
    expect(v.activity).toHaveLength(MAX_ACTIVITY);
    expect(v.activity.at(-1)!.tool).toBe(`t${MAX_ACTIVITY + 4}`);
    expect(v.toolErrors.map((e) => e.code)).toEqual(["E1"]);
    const many = run(...Array.from({ length: MAX_TOOL_ERRORS + 2 }, (_, i) => ev({ type: "tool_error", data: { error_code: `E${i}` } })));
    expect(many.toolErrors.map((e) => e.code)).toEqual(Array.from({ length: MAX_TOOL_ERRORS }, (_, i) => `E${i + 2}`));
  });

  it("keeps guardrail bounces out of the tool failures (server kind wins, old servers by code)", () => {
    const v = run(
      ev({ type: "tool_error", data: { tool: "g", error_code: "GATES_NOT_SATISFIED", message: "m" } }),
      ev({ type: "tool_error", data: { tool: "g", error_code: "SOMETHING", message: "m", kind: "guardrail" } }),
      ev({ type: "tool_error", data: { tool: "g", error_code: "VALIDATION_ERROR", message: "m", kind: "failure" } }),
      ev({ type: "tool_error", data: { tool: "s", error_code: "DATABASE_ERROR", message: "m" } }),
    );
    expect(v.activity.map((a) => a.guardrail)).toEqual([true, true, false, false]);
    expect(v.toolErrors.map((e) => e.code)).toEqual(["VALIDATION_ERROR", "DATABASE_ERROR"]);
  });

  it("smooths the rounds-left estimate across context_usage events", () => {
    const cu = (n: number) => ev({ type: "context_usage", data: { tokens_used: 1, tokens_limit: 2, tokens_remaining: 1, usage_percentage: 50, estimated_rounds_left: n } });
    const v = run(cu(832), cu(54));
    expect(v.context?.estimated_rounds_left).toBe(54);
    expect(v.roundsLeft).toBeCloseTo(81.6);
  });

  it("ignores malformed event data instead of throwing", () => {
    const bad = [
      { type: "premises", data: "nope" },
      { type: "premises", data: [null, 3, "x"] },
      { type: "ask_user", data: null },
      { type: "ask_user", data: { options: [] } },
      { type: "context_usage", data: { tokens_used: "many" } },
      { type: "spec_file_ready", data: {} },
      { type: "tool_call", data: null },
      { type: "tool_error", data: undefined },
      { type: "error", data: null },
      { type: "done", data: null },
      { type: "unknown_kind", data: 1 },
    ] as unknown as StreamEvent[];
    const v = run(...bad.map(ev));
    expect(v.rounds).toEqual([]);
    expect(v.askUser).toBeNull();
    expect(v.context).toBeNull();
    expect(v.specUrl).toBeNull();
    expect(v.error).toEqual({ code: "ERROR", message: "Something went wrong." });
  });

  it("gives premises without ids a stable id", () => {
    const v = run(ev({ type: "premises", data: [{ title: "x", body: "y" }, { title: "z" }] as never }));
    expect(currentRound(v)!.premises.map((p) => p.id)).toEqual(["r1-p0", "r1-p1"]);
  });

  it("loads stored rounds, scores and winners from the session detail", () => {
    const v = reduce(initialView, {
      kind: "loaded",
      spec: "# done",
      specUrl: "/api/v1/sessions/x/spec",
      rounds: [
        { round_number: 2, premises: [{ id: "q", title: "Q", body: "", score: 9, is_winner: true, user_comment: "yes" }] },
        { round_number: 1, premises: [{ id: "p", title: "P", body: "", score: null }] },
      ],
    });
    expect(v.phase).toBe("finished");
    expect(v.rounds.map((r) => r.number)).toEqual([1, 2]);
    expect(v.rounds[1]).toMatchObject({ winnerId: "q", scores: { q: { score: 9, comment: "yes" } } });
    expect(v.rounds[0]!.scores).toEqual({});
    expect(roundsFromRecords(undefined)).toEqual([]);
  });
});

describe("what the server saved wins (issue 28)", () => {
  const premises = [0, 1, 2].map((i) => ({ id: `p${i}`, title: `P${i}`, body: "" }));
  it("an accepted input answers its prompt, even when the turn then fails", () => {
    let v = reduce(initialView, { kind: "event", event: { type: "premises", data: premises } });
    v = reduce(v, { kind: "scores_sent", scores: premises.map((p) => ({ premise_id: p.id, premise_title: p.title, score: 5 })) });
    v = reduce(v, { kind: "turn_started" });
    expect(v.pending).toBe("scores"); // a 400 before any event keeps the round to correct
    v = reduce(v, { kind: "input_accepted" });
    v = reduce(v, { kind: "event", event: { type: "error", data: { code: "ANTHROPIC_API_ERROR", message: "Claude is busy." } } });
    v = reduce(v, { kind: "event", event: { type: "done", data: { error: true } } });
    expect(v.pending).toBeNull();
    expect(v.phase).toBe("failed");
    expect(Object.keys(v.rounds[0]!.scores)).toHaveLength(3);
  });
  it("a session whose run failed loads as failed with its error, without a prompt", () => {
    const v = reduce(initialView, {
      kind: "loaded",
      rounds: [{ round_number: 1, premises: premises.map((p) => ({ ...p, score: 6 })) }],
      spec: null,
      specUrl: null,
      status: "active",
      waiting: "resume",
      runError: { code: "ANTHROPIC_API_ERROR", api_code: "rate_limit", message: "Claude is rate limited." },
    });
    expect(v.phase).toBe("failed");
    expect(v.error).toEqual({ code: "ANTHROPIC_API_ERROR", apiCode: "rate_limit", message: "Claude is rate limited." });
    expect(v.pending).toBeNull();
    expect(v.rounds[0]!.scores.p0).toEqual({ score: 6, comment: undefined });
  });
  it("a stopped run without an error says it stopped", () => {
    const v = reduce(initialView, { kind: "loaded", rounds: [], spec: null, specUrl: null, waiting: "resume" });
    expect(v.error?.code).toBe(STOPPED);
  });
});
