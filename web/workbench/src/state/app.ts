import type { ConnStatus } from "../protocol/client";
import type { ConnectionError, Envelope, ObserverNudge } from "../protocol/types";
import { type DashboardAction, type DashboardSlice, initialDashboard, reduceDashboard } from "./dashboard";
import { initialPractice, type PracticeAction, type PracticeSlice, reducePractice } from "./practice";
import { initialSession, reduceSession, type SessionAction, type SessionSlice } from "./session";
import { initialWorkspace, reduceWorkspace, type WorkspaceAction, type WorkspaceSlice } from "./workspace";

/** TerminalInfo is connection:init's `terminal` (docs/websocket.md). */
export interface TerminalInfo {
  available: boolean;
  authorized: boolean;
  claudeOnPath: boolean;
  claudeInstall: string;
  shell: string;
}

export interface ConnSlice {
  status: ConnStatus;
  serverSession: string;
  flags: Record<string, boolean>;
  terminal: TerminalInfo | null;
}

export interface Toast {
  id: number;
  kind: "nudge" | "error" | "info" | "success" | "warning" | "hint";
  title: string;
  text: string;
}

export interface AppState {
  conn: ConnSlice;
  dashboard: DashboardSlice;
  session: SessionSlice;
  workspace: WorkspaceSlice;
  practice: PracticeSlice;
  toasts: Toast[];
  nextToast: number;
}

export const initialApp: AppState = {
  conn: { status: "connecting", serverSession: "", flags: {}, terminal: null },
  dashboard: initialDashboard,
  session: initialSession,
  workspace: initialWorkspace,
  practice: initialPractice,
  toasts: [],
  nextToast: 1,
};

export type AppAction =
  | { kind: "server"; env: Envelope }
  | { kind: "conn/status"; status: ConnStatus }
  | { kind: "toast/dismiss"; id: number }
  | DashboardAction
  | SessionAction
  | WorkspaceAction
  | PracticeAction;

/** NO_TERMINAL stands for a server whose connection:init has no `terminal`. */
const NO_TERMINAL: TerminalInfo = { available: false, authorized: false, claudeOnPath: false, claudeInstall: "", shell: "" };

/** modelFeaturesOn reports whether the server has a Claude model (featureFlags.model, default true). */
export const modelFeaturesOn = (c: ConnSlice) => c.flags.model !== false;

const MAX_TOASTS = 5;

function toast(s: AppState, t: Omit<Toast, "id">): AppState {
  return { ...s, toasts: [...s.toasts, { ...t, id: s.nextToast }].slice(-MAX_TOASTS), nextToast: s.nextToast + 1 };
}

function nudgeText(n: ObserverNudge): string {
  const c = n.context ?? {};
  const parts = [c.phase_description, c.expected_file && `Look at ${c.expected_file}`].filter(Boolean);
  return parts.length ? parts.join(" · ") : "Paige thinks a nudge could help here.";
}

function toastsFor(s: AppState, env: Envelope): AppState {
  const p = env.payload as Record<string, unknown>;
  switch (env.type) {
    case "observer:nudge": {
      const n = env.payload as ObserverNudge;
      return toast(s, { kind: "nudge", title: `Nudge: ${n.signal.replace(/_/g, " ")}`, text: nudgeText(n) });
    }
    case "connection:error": {
      const e = env.payload as ConnectionError;
      return toast(s, { kind: "error", title: e.code, text: e.message });
    }
    case "fs:save_error":
      return toast(s, { kind: "error", title: `Could not save ${p.path}`, text: String(p.error) });
    case "coaching:message":
      if (p.anchor) return s; // anchored messages live in the coaching panel
      return toast(s, { kind: (["info", "success", "warning", "hint", "error"].includes(String(p.type)) ? p.type : "info") as Toast["kind"], title: "Paige", text: String(p.message) });
  }
  return s;
}

function server(s: AppState, env: Envelope): AppState {
  let next: AppState = {
    ...s,
    dashboard: reduceDashboard(s.dashboard, env),
    session: reduceSession(s.session, env),
    workspace: reduceWorkspace(s.workspace, env),
    practice: reducePractice(s.practice, env),
  };
  if (env.type === "connection:init") {
    const p = env.payload as { sessionId?: string; featureFlags?: Record<string, boolean>; terminal?: TerminalInfo };
    next = { ...next, conn: { ...next.conn, serverSession: p.sessionId ?? "", flags: p.featureFlags ?? {}, terminal: p.terminal ?? NO_TERMINAL } };
  }
  // A new session starts without the last one's marks; the open files stay (the project was open before it).
  if (env.type === "session:started") next = { ...next, workspace: { ...next.workspace, highlights: {}, hints: {}, decorations: {}, hovers: {}, reveal: null } };
  return toastsFor(next, env);
}

/** reduceApp is the workbench's one reducer: server messages go to every area, local actions to theirs. */
export function reduceApp(s: AppState, a: AppAction): AppState {
  switch (a.kind) {
    case "server":
      return server(s, a.env);
    case "conn/status":
      return { ...s, conn: { ...s.conn, status: a.status } };
    case "toast/dismiss":
      return { ...s, toasts: s.toasts.filter((t) => t.id !== a.id) };
  }
  if (a.kind.startsWith("dashboard/")) return { ...s, dashboard: reduceDashboard(s.dashboard, a as DashboardAction) };
  if (a.kind.startsWith("practice/")) return { ...s, practice: reducePractice(s.practice, a as PracticeAction) };
  if (a.kind.startsWith("tab/")) return { ...s, workspace: reduceWorkspace(s.workspace, a as WorkspaceAction) };
  return { ...s, session: reduceSession(s.session, a as SessionAction) };
}
