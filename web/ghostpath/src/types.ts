// Wire types of the GhostPath API (spec v4 sections 4–6, docs/ghostpath-ui.md).

/** One premise as the `premises` SSE event carries it. `id` is added by Paige (NOTES.md). */
export interface Premise {
  id: string;
  title: string;
  body: string;
  premise_type?: string;
  score?: number | null;
  user_comment?: string | null;
  is_winner?: boolean;
  violated_axiom?: string;
  cross_domain_source?: string;
  /** The agent's obviousness_test score, 0 (bold) to 1 (obvious). */
  obviousness_score?: number;
  round_number?: number;
  /** Set on mutated premises: the premise they evolved from. */
  source_title?: string;
  /** Set on cross-pollinated premises: the primary parent. */
  primary_title?: string;
  /** Set on cross-pollinated premises: the other parents. */
  secondary_titles?: string[];
  /** Every parent, resolved by the server (GET /sessions/{id}; older servers omit it). */
  parents?: PremiseParent[];
}

/** One parent of a premise, as GET /sessions/{id} resolves it. */
export interface PremiseParent {
  id: string;
  title: string;
  round_number: number;
  relation: "evolved" | "combined";
}

/** What a session waits for (GET /sessions and /sessions/{id}: waiting_for). */
export type WaitingFor = "agent" | "start" | "scores" | "ask_user" | "final_spec" | "resume" | "spec" | "nothing";

/** The error a session's last run ended with. */
export interface RunError {
  code: string;
  api_code?: string;
  message: string;
}

export interface AskUserOption {
  label: string;
  description?: string;
}

/** The `ask_user` event data: the agent's ask_user tool input. */
export interface AskUserData {
  question: string;
  options: AskUserOption[];
  allow_free_text?: boolean;
  context?: string;
}

/** The `context_usage` event data. */
export interface ContextUsage {
  tokens_used: number;
  tokens_limit: number;
  tokens_remaining: number;
  usage_percentage: number;
  estimated_rounds_left: number;
}

/** One entry of `scores` in a user-input body. */
export interface PremiseScore {
  premise_id: string;
  premise_title: string;
  score: number;
  comment?: string;
}

/** Bodies of POST /api/v1/sessions/{id}/user-input. */
export type UserInput =
  | { type: "scores"; scores: PremiseScore[] }
  | { type: "ask_user_response"; response: string }
  | { type: "resolved"; winner: { title: string; index: number; score?: number }; scores?: PremiseScore[] };

export interface SessionSummary {
  id: string;
  problem: string;
  /** The name the user gave the session; empty: the problem names it. */
  title?: string;
  status: string;
  waiting_for?: WaitingFor;
  run_error?: RunError | null;
  created_at: string;
  /** RFC 3339: the latest tool call, else creation (servers before issue 16 omit it). */
  last_activity_at?: string;
}

/** A stored round as GET /api/v1/sessions/{id} may return it (`rounds`). */
export interface RoundRecord {
  round_number: number;
  premises: Premise[];
}

export interface SessionDetail extends SessionSummary {
  resolved_at?: string | null;
  total_tokens_used?: number;
  spec_url?: string | null;
  answers?: { question: string; answer: string; at: string }[];
  rounds?: RoundRecord[];
}

/** One event of the session stream, after parsing. */
export type StreamEvent =
  | { type: "agent_text"; data: string }
  | { type: "tool_call"; data: { tool: string; input_preview?: string } }
  | { type: "tool_result"; data: unknown }
  | { type: "tool_error"; data: { tool?: string; error_code?: string; message?: string; kind?: "guardrail" | "failure" } }
  | { type: "premises"; data: Premise[] }
  | { type: "ask_user"; data: AskUserData }
  | { type: "final_spec"; data: string }
  | { type: "context_usage"; data: ContextUsage }
  | {
      type: "error";
      data: { code?: string; message?: string; severity?: string; recoverable?: boolean; tool_name?: string; api_code?: string };
    }
  | { type: "done"; data: { error?: boolean; awaiting_input?: boolean; cancelled?: boolean } }
  | { type: "spec_file_ready"; data: { download_url: string } };
