// Types of the Paige WebSocket protocol (docs/websocket.md) as the workbench
// uses them: the payloads are re-exported from catalog.gen.ts (generated from
// the Go catalog in internal/coach/wsapi), plus the few narrower forms the
// views want (Stage, Period, TreeNode).

export type Stage = "novice" | "advanced_beginner" | "competent" | "proficient" | "expert" | string;
export type Period = "7d" | "30d" | "all";

export interface Envelope<T = unknown> {
  type: string;
  payload: T;
  id?: string;
  timestamp?: number;
}

export interface TreeNode {
  name: string;
  path: string;
  type: "file" | "directory";
  children?: TreeNode[];
}

// The payloads below are the Go catalog's, generated into catalog.gen.ts.
export type {
  DreyfusEntry,
  DashboardStats,
  InProgressSession,
  KataSummary,
  DashboardState,
  IssueSuggestion,
  Resource,
  Recommendation,
  FSTreeUpdate as TreeUpdate,
  File as FileContent,
  HighlightLines as Highlight,
  FileHint,
  Range as EditorRange,
  EditorHoverHint as HoverHint,
  IssueContext,
  PhaseSummary as Phase,
  SessionStarted,
  RestoredState,
  SessionSummary,
  SessionCompleted,
  PlanReady,
  PhaseUpdate,
  Anchor,
  CoachingMessage,
  ObserverNudge,
  ObserverStatus,
  ExplainResponse,
  Constraint,
  ReviewResponse,
  KataAttempt,
  Kata,
  KataLoad,
  ConnectionError,
  FSSearchResult,
  FSRename,
} from "./catalog.gen";
