// REST client for /api/v1 (relative to the page's origin).

import type { SessionDetail, SessionSummary, StreamEvent, UserInput } from "../types";
import { readEventStream } from "./sse";

const API = "/api/v1";

/** ApiError carries the REST error envelope's code and field details. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function toError(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not JSON: keep the status line
  }
  const env = (body as { error?: { code?: string; message?: string; context?: unknown; details?: unknown } })?.error;
  if (env && typeof env === "object") {
    return new ApiError(
      env.message || `HTTP ${res.status}`,
      res.status,
      env.code || "HTTP_ERROR",
      env.details ?? env.context,
    );
  }
  const detail = (body as { detail?: unknown })?.detail;
  return new ApiError(typeof detail === "string" ? detail : `HTTP ${res.status}`, res.status, "HTTP_ERROR");
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw await toError(res);
  return (await res.json()) as T;
}

/** specURL is where the final spec of a session is downloaded. */
export function specURL(id: string): string {
  return `${API}/sessions/${encodeURIComponent(id)}/spec`;
}

export async function createSession(problem: string): Promise<SessionSummary> {
  const res = await fetch(`${API}/sessions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ problem }),
  });
  return json<SessionSummary>(res);
}

/** SessionPage is one page of the session list. */
export interface SessionListPage {
  sessions: SessionSummary[];
  /** The offset of the next page, or null when this is the last one. */
  nextOffset: number | null;
  /** How many sessions match (servers before issue 16 do not say). */
  total: number | null;
}

/**
 * listSessions fetches one page of sessions matching q (GET /sessions?limit&offset&q).
 * It degrades on servers that ignore q or omit next_offset: it filters the page by the
 * problem text itself and assumes more pages while a page comes back full.
 */
export async function listSessions(opts: { limit?: number; offset?: number; q?: string } = {}): Promise<SessionListPage> {
  const limit = opts.limit ?? 20;
  const offset = opts.offset ?? 0;
  const q = (opts.q ?? "").trim().slice(0, 200);
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (q) params.set("q", q);
  const body = await json<{ sessions?: SessionSummary[]; next_offset?: number; total?: number }>(
    await fetch(`${API}/sessions?${params}`),
  );
  const all = Array.isArray(body.sessions) ? body.sessions : [];
  const needle = q.toLowerCase();
  const sessions = needle ? all.filter((s) => String(s.problem ?? "").toLowerCase().includes(needle)) : all;
  const nextOffset =
    typeof body.next_offset === "number" ? body.next_offset : all.length >= limit && all.length > 0 ? offset + all.length : null;
  return { sessions, nextOffset, total: typeof body.total === "number" ? body.total : null };
}

/** lastActivity is when a session last did something: last_activity_at, else created_at. */
export function lastActivity(s: SessionSummary): string {
  return s.last_activity_at || s.created_at || "";
}

/** instant is a timestamp's milliseconds (0 when absent or unreadable). The
 * server writes RFC 3339 with trailing zeros trimmed (28.1Z, 28.15Z), so its
 * times order as instants, never as text. */
function instant(t: string): number {
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : ms;
}

/** mergeSessions appends a page to a list without duplicates, newest activity
 * first; sessions with the same instant keep the server's order. */
export function mergeSessions(list: SessionSummary[], page: SessionSummary[]): SessionSummary[] {
  const seen = new Set(list.map((s) => s.id));
  const merged = [...list, ...page.filter((s) => !seen.has(s.id) && seen.add(s.id))];
  return merged.sort((a, b) => instant(lastActivity(b)) - instant(lastActivity(a)));
}

export async function getSession(id: string): Promise<SessionDetail> {
  return json<SessionDetail>(await fetch(`${API}/sessions/${encodeURIComponent(id)}`));
}

/** renameSession names a session (PATCH /sessions/{id}); an empty title lets its problem name it. */
export async function renameSession(id: string, title: string): Promise<SessionDetail> {
  const res = await fetch(`${API}/sessions/${encodeURIComponent(id)}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ title }),
  });
  return json<SessionDetail>(res);
}

/** exportURL is where a session's whole record is downloaded, as Markdown or JSON. */
export function exportURL(id: string, format: "md" | "json"): string {
  return `${API}/sessions/${encodeURIComponent(id)}/export?format=${format}`;
}

/** sessionName is what a session is called: its title, else the start of its problem. */
export function sessionName(s: { title?: string; problem: string }, max = 80): string {
  const t = (s.title ?? "").trim();
  if (t) return t;
  return s.problem.length > max ? s.problem.slice(0, max - 1) + "…" : s.problem;
}

export async function deleteSession(id: string): Promise<void> {
  const res = await fetch(`${API}/sessions/${encodeURIComponent(id)}`, { method: "DELETE" });
  if (!res.ok) throw await toError(res);
}

export async function cancelSession(id: string): Promise<void> {
  const res = await fetch(`${API}/sessions/${encodeURIComponent(id)}/cancel`, { method: "POST" });
  if (!res.ok) throw await toError(res);
}

/** fetchSpec returns the stored Markdown spec, or null when none exists yet (404). */
export async function fetchSpec(id: string): Promise<string | null> {
  const res = await fetch(specURL(id));
  if (res.status === 404) return null;
  if (!res.ok) throw await toError(res);
  return res.text();
}

async function stream(res: Response, onEvent: (ev: StreamEvent) => void, signal?: AbortSignal) {
  if (!res.ok) throw await toError(res);
  if (!res.body) throw new ApiError("empty stream", res.status, "HTTP_ERROR");
  await readEventStream(res.body, onEvent, signal);
}

/** openStream runs GET /sessions/{id}/stream until the server ends the turn. */
export async function openStream(id: string, onEvent: (ev: StreamEvent) => void, signal?: AbortSignal) {
  const res = await fetch(`${API}/sessions/${encodeURIComponent(id)}/stream`, {
    headers: { Accept: "text/event-stream" },
    signal,
  });
  await stream(res, onEvent, signal);
}

/** sendUserInput posts one input and reads the turn it starts (an SSE body). */
export async function sendUserInput(
  id: string,
  input: UserInput,
  onEvent: (ev: StreamEvent) => void,
  signal?: AbortSignal,
) {
  const res = await fetch(`${API}/sessions/${encodeURIComponent(id)}/user-input`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(input),
    signal,
  });
  await stream(res, onEvent, signal);
}
