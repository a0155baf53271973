import type {
  CoachingMessage, Envelope, ExplainResponse, IssueContext, ObserverStatus, Phase, PhaseUpdate, PlanReady,
  RestoredState, SessionCompleted, SessionStarted, SessionSummary,
} from "../protocol/types";

export interface ExplainState {
  status: "loading" | "ready" | "error";
  path: string;
  selectedText: string;
  response?: ExplainResponse;
  error?: string;
}

export interface SessionSlice {
  id: string | null;
  status: "none" | "starting" | "active" | "ended";
  issue: IssueContext | null;
  phases: Phase[];
  plan: { planId: string; memoryConnection: string | null; estimatedDifficulty: string } | null;
  hintLevel: string;
  messages: CoachingMessage[];
  observer: ObserverStatus;
  explain: ExplainState | null;
  ended: SessionSummary | null;
  completed: SessionCompleted | null;
}

export const initialSession: SessionSlice = {
  id: null,
  status: "none",
  issue: null,
  phases: [],
  plan: null,
  hintLevel: "none",
  messages: [],
  observer: { active: false, muted: false, lastEvaluation: null },
  explain: null,
  ended: null,
  completed: null,
};

export type SessionAction =
  | { kind: "session/starting" }
  | { kind: "hints/level"; level: string }
  | { kind: "explain/requested"; path: string; selectedText: string }
  | { kind: "explain/close" }
  | { kind: "summary/dismiss" };

function mergePhase(phases: Phase[], ph: Phase): Phase[] {
  const i = phases.findIndex((p) => (ph.id && p.id === ph.id) || p.number === ph.number);
  if (i < 0) return [...phases, ph].sort((a, b) => a.number - b.number);
  return phases.map((p, j) => (j === i ? { ...p, ...ph } : p));
}

function restore(s: SessionSlice, r: RestoredState & { hintLevel?: string }): SessionSlice {
  return {
    ...s,
    id: r.sessionId,
    status: "active",
    issue: r.issueContext ?? s.issue,
    phases: r.phases ?? [],
    hintLevel: r.hintLevel ?? s.hintLevel,
    ended: null,
    completed: s.completed?.sessionId === r.sessionId ? s.completed : null,
  };
}

function local(s: SessionSlice, a: SessionAction): SessionSlice {
  switch (a.kind) {
    case "session/starting":
      return { ...s, status: "starting" };
    case "hints/level":
      return { ...s, hintLevel: a.level };
    case "explain/requested":
      return { ...s, explain: { status: "loading", path: a.path, selectedText: a.selectedText } };
    case "explain/close":
      return { ...s, explain: null };
    case "summary/dismiss":
      return { ...s, completed: null, ended: null };
  }
}

/**
 * reduceSession applies session, coaching, Observer and Explain This
 * messages: the active session and its issue, the plan's phases as
 * coaching:phase_update changes them, coaching messages, the Observer's
 * status, the explanation panel and the wrap-up summary.
 */
export function reduceSession(s: SessionSlice, a: Envelope | SessionAction): SessionSlice {
  if ("kind" in a) return local(s, a);
  const p = a.payload as Record<string, unknown>;
  switch (a.type) {
    case "session:started": {
      const st = a.payload as SessionStarted;
      return {
        ...initialSession,
        observer: s.observer,
        id: st.sessionId,
        status: "active",
        issue: st.issueContext,
        phases: st.phases ?? [],
        hintLevel: st.hintLevel || "none",
      };
    }
    case "session:resumed":
      return restore(s, (p.restoredState as RestoredState) ?? s);
    case "session:state":
      return p.restoredState ? restore(s, p.restoredState as RestoredState) : s.status === "active" ? { ...s, status: "none", id: null } : s;
    case "session:ended":
      return { ...s, status: "ended", ended: (p.summary as SessionSummary) ?? null };
    case "session:completed":
      return { ...s, status: "ended", completed: a.payload as SessionCompleted };
    case "coaching:issue_context":
      return { ...s, issue: a.payload as IssueContext };
    case "coaching:plan_ready": {
      const pr = a.payload as PlanReady;
      return { ...s, phases: pr.phases ?? [], plan: { planId: pr.planId, memoryConnection: pr.memoryConnection, estimatedDifficulty: pr.estimatedDifficulty } };
    }
    case "coaching:phase_update": {
      const u = a.payload as PhaseUpdate;
      return { ...s, phases: mergePhase(s.phases, { ...u.phase, status: u.status || u.phase.status }) };
    }
    case "coaching:message":
      return { ...s, messages: [...s.messages, a.payload as CoachingMessage].slice(-50) };
    case "observer:status":
      return { ...s, observer: a.payload as ObserverStatus };
    case "explain:response": {
      const r = a.payload as ExplainResponse;
      return { ...s, explain: { path: r.path, selectedText: s.explain?.selectedText ?? "", status: "ready", response: r } };
    }
    case "explain:error":
      return { ...s, explain: { path: String(p.path), selectedText: s.explain?.selectedText ?? "", status: "error", error: String(p.error) } };
  }
  return s;
}
