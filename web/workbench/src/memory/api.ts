// The Memory page's REST API (internal/memoryview, served by `paige serve`
// at /api/memory…). It is not part of the WebSocket catalog: the page meets
// learn, seed and the coach's memory store, which the coach's protocol does
// not own. Types mirror memoryview's JSON.

export type KnowledgeType = "preference" | "fact" | "rule" | "procedure" | "correction" | "decision";

export interface ProposalRef {
  id: string;
  status: "pending" | "accepted" | "rejected";
}

export interface LearnedEntry {
  id: string;
  type: KnowledgeType;
  content: string;
  confidence: number;
  entities: string[];
  evidence?: string;
  source: string;
  extractedAt: string;
  pinned?: boolean;
  proposal?: ProposalRef;
}

export interface SeedProposal {
  id: string;
  type: "pattern" | "insight" | "self_knowledge";
  content: string;
  source: string;
  extractedAt: string;
  status: "pending" | "accepted" | "rejected";
  method?: string;
  confidence?: number;
  decidedAt?: string;
  entryId?: string;
  session?: string;
}

export interface CoachMemory {
  id: string;
  content: string;
  metadata: { session_id: string; project: string; created_at: string; importance: string; tags: string };
  thisProject: boolean;
}

export interface MemoryView {
  query: string;
  entries: LearnedEntry[];
  proposals: SeedProposal[];
  memories: CoachMemory[];
  memoryStatus: "editable" | "read-only" | "off";
  seedWarnings?: string[];
  forgotten: number;
  /** more counts the matching items of each kind beyond the first 500 (a search narrows them down). */
  more: { entries: number; proposals: number; memories: number };
}

/** ApiError is a refusal from the server, with its HTTP status and message. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: {} };
  if (body !== undefined) {
    init.headers = { "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const msg = (data as { error?: string } | null)?.error ?? `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, msg);
  }
  return data as T;
}

const seg = encodeURIComponent;

/** memoryApi are the page's calls; each resolves with the server's answer or rejects with an ApiError. */
export const memoryApi = {
  view: (q: string) => call<MemoryView>("GET", `/api/memory${q.trim() ? `?q=${seg(q.trim())}` : ""}`),
  editEntry: (id: string, content: string) => call<LearnedEntry>("PATCH", `/api/memory/entries/${seg(id)}`, { content }),
  pinEntry: (id: string, pinned: boolean) => call<LearnedEntry>("PATCH", `/api/memory/entries/${seg(id)}`, { pinned }),
  forgetEntry: (id: string) => call<LearnedEntry>("DELETE", `/api/memory/entries/${seg(id)}`),
  decide: (id: string, accept: boolean) =>
    call<{ proposal: SeedProposal; warnings: string[] }>("POST", `/api/memory/proposals/${seg(id)}/${accept ? "accept" : "reject"}`, {}),
  editMemory: (id: string, content: string) => call<CoachMemory>("PATCH", `/api/memory/memories/${seg(id)}`, { content }),
  forgetMemory: (id: string) => call<null>("DELETE", `/api/memory/memories/${seg(id)}`),
};

export type MemoryApi = typeof memoryApi;
