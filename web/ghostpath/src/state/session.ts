// The session page's state: a pure reducer over stream events and user actions.

import { smoothRoundsLeft } from "../lib/roundsLeft";
import type { AskUserData, ContextUsage, Premise, PremiseScore, RoundRecord, RunError, StreamEvent, WaitingFor } from "../types";

/** ActivityItem is one line of the activity indicator. */
export interface ActivityItem {
  seq: number;
  kind: "call" | "result" | "error";
  tool: string;
  text: string;
  code?: string;
  /** For errors: true when it is a guardrail bounce (the agent corrects itself), false for a failure. */
  guardrail?: boolean;
}

/** GUARDRAIL_CODES are the tool error codes of the design working (docs/ghostpath.md: tool_error kind "guardrail"). */
export const GUARDRAIL_CODES = new Set([
  "VALIDATION_ERROR", "GATES_NOT_SATISFIED", "ROUND_BUFFER_FULL", "AXIOM_NOT_CHALLENGED", "AXIOM_NOT_EXTRACTED",
  "NEGATIVE_CONTEXT_MISSING", "INCOMPLETE_ROUND", "UNTESTED_PREMISES", "INVALID_INDEX", "UNKNOWN_TOOL",
  "FINAL_SPEC_NOT_ALLOWED", "TOO_OBVIOUS",
]);

/** isGuardrail classifies a tool error: the server's kind wins; an old server's (no kind) known codes are guardrails. */
export function isGuardrail(kind: unknown, code: string): boolean {
  if (kind === "guardrail") return true;
  if (kind === "failure") return false;
  return GUARDRAIL_CODES.has(code);
}

/** Round is one presented round with what the user answered. */
export interface Round {
  number: number;
  premises: Premise[];
  /** Scores and comments by premise id, once sent. */
  scores: Record<string, { score: number; comment?: string }>;
  winnerId?: string;
}

export type Phase = "idle" | "streaming" | "awaiting" | "finished" | "failed";

export interface SessionView {
  phase: Phase;
  /** Agent text of the current turn, oldest first. */
  agentText: string[];
  /** The most recent tool calls, results and errors, oldest first. */
  activity: ActivityItem[];
  /** The most recent tool failures (not guardrail bounces) of the session, oldest first (kept apart so calls do not push them out). */
  toolErrors: ActivityItem[];
  rounds: Round[];
  /** What the agent waits for; null while it works or when nothing is pending. */
  pending: "scores" | "ask_user" | null;
  askUser: AskUserData | null;
  spec: string | null;
  specUrl: string | null;
  context: ContextUsage | null;
  /** The smoothed rounds-left estimate (lib/roundsLeft), null before the first context_usage. */
  roundsLeft: number | null;
  /** The run's error: message is for people; code (and apiCode, the model API's own type) are for support. */
  error: { code: string; message: string; apiCode?: string } | null;
  /** The user resolved the session (picked the winner). */
  resolved: boolean;
  /** What the server said the session waits for when the page loaded; cleared by the next turn. */
  waiting: WaitingFor | null;
  seq: number;
}

export type Action =
  | { kind: "event"; event: StreamEvent }
  | { kind: "turn_started" }
  | { kind: "scores_sent"; scores: PremiseScore[] }
  | { kind: "resolved_sent"; index: number }
  | { kind: "stream_failed"; message: string; code?: string }
  | { kind: "input_accepted" }
  | {
      kind: "loaded";
      rounds: RoundRecord[];
      spec: string | null;
      specUrl: string | null;
      status?: string;
      waiting?: WaitingFor;
      runError?: RunError | null;
    };

/** MAX_ACTIVITY bounds the activity list: the steps of a turn (collapsed by default), recent ones only. */
export const MAX_ACTIVITY = 100;
/** MAX_TOOL_ERRORS bounds the tool errors kept for display. */
export const MAX_TOOL_ERRORS = 5;
const MAX_TEXT = 50;

export const initialView: SessionView = {
  phase: "idle",
  agentText: [],
  activity: [],
  toolErrors: [],
  rounds: [],
  pending: null,
  askUser: null,
  spec: null,
  specUrl: null,
  context: null,
  roundsLeft: null,
  error: null,
  resolved: false,
  waiting: null,
  seq: 0,
};

/** STOPPED is the error code shown for a run that stopped without an error (cancelled, or Paige stopped). */
export const STOPPED = "STOPPED";

/** currentRound returns the last presented round, or null. */
export function currentRound(v: SessionView): Round | null {
  return v.rounds.length > 0 ? v.rounds[v.rounds.length - 1]! : null;
}

function str(v: unknown, max = 300): string {
  const s = typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v);
  return s.length > max ? s.slice(0, max) + "…" : s;
}

function pushActivity(v: SessionView, item: Omit<ActivityItem, "seq">): SessionView {
  const seq = v.seq + 1;
  const activity = [...v.activity, { ...item, seq }].slice(-MAX_ACTIVITY);
  return { ...v, seq, activity };
}

/** normalizePremises keeps well-formed premises and gives each a stable id. */
export function normalizePremises(data: unknown, round: number): Premise[] {
  if (!Array.isArray(data)) return [];
  return data
    .filter((p): p is Record<string, unknown> => p !== null && typeof p === "object")
    .map((p, i) => ({
      ...(p as Partial<Premise>),
      id: typeof p.id === "string" && p.id !== "" ? p.id : `r${round}-p${i}`,
      title: typeof p.title === "string" ? p.title : `Premise ${i + 1}`,
      body: typeof p.body === "string" ? p.body : "",
    }));
}

function samePremises(a: Premise[], b: Premise[]): boolean {
  return a.length === b.length && a.every((p, i) => p.id === b[i]!.id);
}

function onPremises(v: SessionView, data: unknown): SessionView {
  const last = currentRound(v);
  const first = Array.isArray(data) ? (data[0] as { round_number?: unknown } | undefined) : undefined;
  const number =
    typeof first?.round_number === "number" ? first.round_number : (last?.number ?? 0) + 1;
  const premises = normalizePremises(data, number);
  if (premises.length === 0) return v;
  const base = { ...v, pending: "scores" as const, askUser: null };
  if (last && samePremises(last.premises, premises)) return base; // a resumed stream re-sent it
  return { ...base, rounds: [...v.rounds, { number, premises, scores: {} }] };
}

function onEvent(v: SessionView, ev: StreamEvent): SessionView {
  switch (ev.type) {
    case "agent_text":
      return { ...v, agentText: [...v.agentText, str(ev.data, 20000)].slice(-MAX_TEXT) };
    case "tool_call":
      return pushActivity(v, { kind: "call", tool: str(ev.data?.tool, 80), text: str(ev.data?.input_preview) });
    case "tool_result":
      return pushActivity(v, { kind: "result", tool: "", text: str(ev.data) });
    case "tool_error": {
      const code = str(ev.data?.error_code, 80) || "TOOL_ERROR";
      const guardrail = isGuardrail(ev.data?.kind, code);
      const next = pushActivity(v, { kind: "error", tool: str(ev.data?.tool, 80), code, text: str(ev.data?.message, 1000), guardrail });
      if (guardrail) return next;
      return { ...next, toolErrors: [...v.toolErrors, next.activity.at(-1)!].slice(-MAX_TOOL_ERRORS) };
    }
    case "premises":
      return onPremises(v, ev.data);
    case "ask_user":
      if (!ev.data || typeof ev.data.question !== "string") return v;
      return {
        ...v,
        pending: "ask_user",
        askUser: { ...ev.data, options: Array.isArray(ev.data.options) ? ev.data.options : [] },
      };
    case "final_spec":
      return { ...v, spec: str(ev.data, Number.MAX_SAFE_INTEGER), pending: null, askUser: null };
    case "context_usage":
      if (!ev.data || typeof ev.data.tokens_used !== "number") return v;
      return { ...v, context: ev.data, roundsLeft: smoothRoundsLeft(v.roundsLeft, ev.data.estimated_rounds_left) };
    case "spec_file_ready":
      return typeof ev.data?.download_url === "string" ? { ...v, specUrl: ev.data.download_url } : v;
    case "error":
      return {
        ...v,
        error: {
          code: str(ev.data?.code, 80) || "ERROR",
          message: str(ev.data?.message, 1000) || "Something went wrong.",
          ...(ev.data?.api_code ? { apiCode: str(ev.data.api_code, 80) } : {}),
        },
      };
    case "done": {
      if (ev.data?.cancelled) {
        return { ...v, phase: "failed", pending: null, error: { code: "CANCELLED", message: "The session was cancelled." } };
      }
      if (ev.data?.error) return { ...v, phase: "failed" };
      if (ev.data?.awaiting_input && v.pending) return { ...v, phase: "awaiting" };
      return { ...v, pending: null, askUser: null, phase: v.spec !== null ? "finished" : "idle" };
    }
    default:
      return v;
  }
}

/** reduce is the session page's reducer: pure, total, never throws on odd input. */
export function reduce(v: SessionView, a: Action): SessionView {
  switch (a.kind) {
    case "event":
      return onEvent(v, a.event);
    case "turn_started":
      // The pending prompt stays until the turn answers it (events or done), so a
      // rejected input (HTTP 400 before any event) can be corrected and re-sent.
      return { ...v, phase: "streaming", agentText: [], error: null, waiting: null };
    case "input_accepted":
      // The server took the input (its turn's stream began): the prompt it
      // answered is answered, whatever the turn does next (an error included).
      return { ...v, pending: null, askUser: null };
    case "scores_sent": {
      const last = currentRound(v);
      if (!last) return v;
      const scores = { ...last.scores };
      for (const s of a.scores) scores[s.premise_id] = { score: s.score, comment: s.comment };
      return { ...v, rounds: [...v.rounds.slice(0, -1), { ...last, scores }] };
    }
    case "resolved_sent": {
      const last = currentRound(v);
      const winner = last?.premises[a.index];
      if (!last || !winner) return v;
      return { ...v, resolved: true, rounds: [...v.rounds.slice(0, -1), { ...last, winnerId: winner.id }] };
    }
    case "stream_failed": {
      const error = { code: a.code ?? "NETWORK_ERROR", message: a.message };
      // A cancelled session takes no more input: its pending round or question goes away.
      if (a.code === "CANCELLED") return { ...v, phase: "failed", pending: null, askUser: null, error };
      return { ...v, phase: "failed", error };
    }
    case "loaded":
      return onLoaded(v, a);
  }
}

/** roundsFromRecords turns stored rounds (GET /sessions/{id}) into Rounds. */
export function roundsFromRecords(records: RoundRecord[] | undefined): Round[] {
  if (!Array.isArray(records)) return [];
  return records
    .filter((r) => r && typeof r.round_number === "number")
    .map((r) => {
      const premises = normalizePremises(r.premises, r.round_number);
      const scores: Round["scores"] = {};
      let winnerId: string | undefined;
      for (const p of premises) {
        if (typeof p.score === "number") scores[p.id] = { score: p.score, comment: p.user_comment ?? undefined };
        if (p.is_winner) winnerId = p.id;
      }
      return { number: r.round_number, premises, scores, winnerId };
    })
    .sort((a, b) => a.number - b.number);
}

/** onLoaded takes the stored session: its rounds, spec, and what it waits for. */
function onLoaded(v: SessionView, a: Extract<Action, { kind: "loaded" }>): SessionView {
  const next: SessionView = {
    ...v,
    rounds: roundsFromRecords(a.rounds),
    spec: a.spec,
    specUrl: a.specUrl,
    resolved: a.status === "resolved",
    waiting: a.waiting ?? null,
    phase: a.spec !== null ? "finished" : v.phase,
  };
  if (a.spec === null && a.waiting === "resume") {
    // The last run failed or stopped: say so plainly, and let the user resume it.
    const e = a.runError;
    const error = e
      ? { code: e.code || "ERROR", message: e.message || "The agent's last run failed.", ...(e.api_code ? { apiCode: e.api_code } : {}) }
      : {
          code: STOPPED,
          message: "The agent's last run stopped before it finished (it was cancelled, or Paige stopped). Everything so far is saved: resume it to go on.",
        };
    return { ...next, phase: "failed", error };
  }
  return next;
}

/**
 * withLocalScores fills the scores the server lacks from the copy this browser kept (a last
 * round scored on the page but resolved without Next Round): the server's values always win.
 */
export function withLocalScores(stored: Round[], local: Round[]): Round[] {
  const kept = new Map<string, { score: number; comment?: string }>();
  for (const r of local) for (const [id, s] of Object.entries(r.scores)) kept.set(id, s);
  return stored.map((r) => {
    const scores = { ...r.scores };
    for (const p of r.premises) if (scores[p.id] === undefined && kept.has(p.id)) scores[p.id] = kept.get(p.id)!;
    return { ...r, scores };
  });
}
