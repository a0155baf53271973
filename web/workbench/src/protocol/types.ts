// Payload types of the Paige WebSocket protocol (docs/websocket.md) that the
// workbench reads and sends. They mirror the Go catalog in internal/coach/wsapi.

export type Stage = "novice" | "advanced_beginner" | "competent" | "proficient" | "expert" | string;
export type Period = "7d" | "30d" | "all";

export interface Envelope<T = unknown> {
  type: string;
  payload: T;
  id?: string;
  timestamp?: number;
}

export interface DreyfusEntry {
  skillArea: string;
  stage: Stage;
  confidence: number;
  assessedAt: string;
}

export interface DashboardStats {
  period: Period;
  sessionsCompleted: number;
  totalCoachingMinutes: number;
  issuesWorkedOn: number;
  knowledgeGapsIdentified: number;
  knowledgeGapsAddressed: number;
  hintsUsed: number;
  apiCostTotal: number;
}

export interface InProgressSession {
  id: string;
  issueNumber: number | null;
  issueTitle: string | null;
  startedAt: string;
}

export interface KataSummary {
  id: string;
  title: string;
  topic: string;
  attemptsCount: number;
  bestLevel: number | null;
  constraintCount: number;
}

export interface DashboardState {
  dreyfus: DreyfusEntry[];
  stats: DashboardStats;
  inProgressSessions: InProgressSession[];
  katas: KataSummary[];
}

export interface IssueSuggestion {
  number: number;
  title: string;
  summary: string;
  suitability: string;
  suitabilityReason: string;
  estimatedDifficulty: string;
  relevantSkills: string[];
  priorityScore: number;
  learningOpportunities: string[];
}

export interface Resource {
  type: string;
  title: string;
  url: string;
  description: string;
  relevance: string;
  estimatedTime: string;
}

export interface Recommendation {
  knowledgeGap: string;
  resources: Resource[];
  studyOrder: string;
  practiceConnection: string | null;
}

export interface TreeNode {
  name: string;
  path: string;
  type: "file" | "directory";
  children?: TreeNode[];
}

export interface TreeUpdate {
  action: "add" | "change" | "unlink" | "addDir" | "unlinkDir";
  path: string;
  newPath?: string;
}

export interface FileContent {
  path: string;
  content: string;
  language: string;
  lineCount: number;
  binary?: boolean;
  size: number;
}

export interface Highlight {
  path: string;
  start: number;
  end: number;
  style: string;
  hoverText?: string;
}

export interface FileHint {
  path: string;
  style: string;
  directories?: string[];
}

export interface EditorRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface HoverHint {
  path: string;
  range: EditorRange;
  hintText: string;
}

export interface IssueContext {
  number?: number;
  title: string;
  summary?: string;
  labels?: string[];
  url?: string;
}

export interface Phase {
  id?: string;
  number: number;
  title: string;
  description?: string;
  status: string;
  hintLevel?: string;
}

export interface SessionStarted {
  sessionId: string;
  issueContext: IssueContext | null;
  phases: Phase[];
  hintLevel: string;
  openFiles?: string[];
}

export interface RestoredState {
  sessionId: string;
  issueContext: IssueContext | null;
  phases: Phase[];
  openFiles: string[];
  startedAt: string;
}

export interface SessionSummary {
  sessionId: string;
  status: string;
  startedAt: string;
  endedAt: string;
  durationMs: number;
}

export interface SessionCompleted {
  sessionId: string;
  knowledgeGaps: number;
  kataSpecs: number;
  dreyfusUpdates: number;
  memoriesStored: number;
}

export interface PlanReady {
  planId: string;
  phases: Phase[];
  memoryConnection: string | null;
  estimatedDifficulty: string;
}

export interface PhaseUpdate {
  phase: Phase;
  status: string;
  description: string;
}

export interface Anchor {
  path: string;
  startLine: number;
  endLine?: number;
}

export interface CoachingMessage {
  message: string;
  type: string;
  anchor?: Anchor;
}

export interface ObserverNudge {
  signal: string;
  confidence: number;
  context: Record<string, unknown>;
}

export interface ObserverStatus {
  active: boolean;
  muted: boolean;
  lastEvaluation: string | null;
}

export interface ExplainResponse {
  path: string;
  explanation: string;
  keyConcepts: string[];
  analogy: string | null;
  relatedFiles: string[] | null;
  phaseConnection: string | null;
}

export interface Constraint {
  title: string;
  description: string;
  minLevel: number;
}

export interface ReviewResponse {
  kataId: string;
  correct: boolean;
  feedback: string;
  level: number;
  passed: boolean;
  followUp: { type: string; constraint?: string; reason?: string } | null;
  dreyfusSignal: string;
  unlockedConstraints: Constraint[];
}

export interface KataAttempt {
  code: string;
  review?: string;
  level?: number;
  passed?: boolean;
  constraints?: Constraint[];
}

export interface Kata {
  id: string;
  title: string;
  description: string;
  scaffoldingCode: string;
  constraints?: Constraint[];
  userAttempts?: KataAttempt[];
}

export interface KataLoad {
  kata: Kata;
  constraints: Constraint[];
}

export interface ConnectionError {
  code: string;
  message: string;
  context?: Record<string, unknown>;
}
