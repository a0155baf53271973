import { useCallback, useEffect, useRef, useState } from "react";
import { cancelSession, createSession, deleteSession, lastActivity, listSessions, mergeSessions, sessionName } from "../api/client";
import { useConfirm } from "../components/ConfirmDialog";
import { ProblemInput } from "../components/ProblemInput";
import { Link, navigate } from "../router";
import type { SessionSummary, WaitingFor } from "../types";

const STATUS: Record<string, string> = {
  created: "bg-gray-100 text-gray-700",
  active: "bg-blue-100 text-blue-800",
  resolved: "bg-green-100 text-green-800",
  cancelled: "bg-amber-100 text-amber-800",
};

/** WAITING says plainly what a session waits for (the API's waiting_for). */
export const WAITING: Record<WaitingFor, string> = {
  agent: "The agent is working",
  start: "Not started yet",
  scores: "Waiting for your scores",
  ask_user: "Waiting for your answer",
  final_spec: "Spec written",
  resume: "Stopped: waiting for you to resume it",
  spec: "Resolved without a spec: continue it to get one",
  nothing: "",
};

/** waitingText is a session's state in words; a failed run says why it failed. */
export function waitingText(s: SessionSummary): string {
  if (s.waiting_for === "resume" && s.run_error) return `Failed: ${s.run_error.message}`;
  return s.waiting_for ? WAITING[s.waiting_for] ?? "" : "";
}

/** PAGE_SIZE is how many sessions one "Load more" fetches. */
export const PAGE_SIZE = 20;
/** SEARCH_DELAY_MS debounces the search box. */
export const SEARCH_DELAY_MS = 250;

/** canCancel: created and active sessions (running or paused at a round or question) can be cancelled. */
export function canCancel(status: string): boolean {
  return status === "created" || status === "active";
}

/** useSessionList pages through sessions matching a search, newest activity first. */
function useSessionList() {
  const [q, setQ] = useState("");
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = useRef(0);

  const load = useCallback(async (search: string, offset: number, base: SessionSummary[]) => {
    const mine = ++query.current;
    try {
      const page = await listSessions({ limit: PAGE_SIZE, offset, q: search });
      if (mine !== query.current) return; // a newer search answered first
      setSessions(mergeSessions(base, page.sessions));
      setNext(page.nextOffset);
      setTotal(page.total);
      setError(null);
    } catch (e) {
      if (mine === query.current) setError((e as Error).message);
    }
  }, []);

  useEffect(() => {
    const t = setTimeout(() => void load(q, 0, []), q === "" ? 0 : SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [q, load]);

  return {
    q,
    setQ,
    sessions,
    next,
    total,
    error,
    setError,
    more: () => next !== null && void load(q, next, sessions ?? []),
    refresh: () => load(q, 0, []),
  };
}

/** HomePage: the problem input and the searchable, paged list of past sessions. */
export function HomePage() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = useSessionList();
  const [dialog, ask] = useConfirm();

  const start = async (problem: string) => {
    setBusy(true);
    setError(null);
    try {
      const s = await createSession(problem);
      navigate(`sessions/${encodeURIComponent(s.id)}`);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  const act = async (s: SessionSummary, verb: "Delete" | "Cancel") => {
    const del = verb === "Delete";
    const ok = await ask({
      title: del ? "Delete this session?" : "Cancel this session?",
      detail: `${s.problem.slice(0, 200)}\n\n${del ? "Its rounds, scores and spec are deleted. This cannot be undone." : "The agent stops and the session cannot be resumed. Its rounds stay in the evolution report."}`,
      confirm: del ? "Yes, delete it" : "Yes, cancel it",
      danger: del,
    });
    if (!ok) return;
    try {
      await (verb === "Delete" ? deleteSession(s.id) : cancelSession(s.id));
      await list.refresh();
    } catch (e) {
      list.setError((e as Error).message);
    }
  };

  return (
    <div className="space-y-10">
      {dialog}
      <ProblemInput onSubmit={start} busy={busy} error={error} />
      <section aria-labelledby="past-h" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="past-h" className="text-lg font-semibold">
            Past sessions{list.total !== null && <span className="ml-2 text-sm font-normal text-gray-500">({list.total})</span>}
          </h2>
          <input
            type="search"
            aria-label="Search sessions by problem"
            placeholder="Search problems…"
            value={list.q}
            maxLength={200}
            onChange={(e) => list.setQ(e.target.value)}
            className="w-full rounded-lg border border-gray-300 px-3 py-1.5 text-sm sm:w-64"
          />
        </div>
        {list.error && (
          <p role="alert" className="text-sm text-red-700">
            Could not load sessions: {list.error}
          </p>
        )}
        {list.sessions === null && !list.error && <p className="text-sm text-gray-500">Loading…</p>}
        {list.sessions?.length === 0 && (
          <p className="text-sm text-gray-500">{list.q.trim() ? "No session matches your search." : "No sessions yet."}</p>
        )}
        <ul className="space-y-2">
          {list.sessions?.map((s) => (
            <SessionRow key={s.id} s={s} onAct={act} />
          ))}
        </ul>
        {list.next !== null && (
          <button type="button" onClick={list.more} className="w-full rounded-lg border border-gray-300 py-2 text-sm hover:bg-gray-50">
            Load more
          </button>
        )}
      </section>
    </div>
  );
}

function SessionRow({ s, onAct }: { s: SessionSummary; onAct: (s: SessionSummary, verb: "Delete" | "Cancel") => void }) {
  const when = lastActivity(s);
  const short = s.problem.slice(0, 80);
  const state = waitingText(s);
  const failed = s.waiting_for === "resume";
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-gray-200 bg-white p-3 sm:flex-row sm:items-center">
      <Link to={`sessions/${encodeURIComponent(s.id)}`} className="min-w-0 flex-1 hover:underline">
        {s.title ? (
          <span className="block break-words font-medium">{sessionName(s)}</span>
        ) : (
          <span className="line-clamp-2 break-words">{s.problem}</span>
        )}
        {state && (
          <span data-waiting={s.waiting_for} className={`mt-1 block text-xs ${failed ? "text-red-700" : "text-gray-600"}`}>
            {state}
          </span>
        )}
      </Link>
      <div className="flex shrink-0 flex-wrap items-center gap-2 text-xs">
        <span className={`rounded-full px-2 py-0.5 ${STATUS[s.status] ?? STATUS.created}`}>{s.status}</span>
        {when && (
          <time dateTime={when} title="Last activity">
            {new Date(when).toLocaleString()}
          </time>
        )}
        <Link to={`sessions/${encodeURIComponent(s.id)}/report`} className="text-blue-700 underline">
          Report
        </Link>
        {canCancel(s.status) && (
          <button type="button" onClick={() => onAct(s, "Cancel")} aria-label={`Cancel session: ${short}`} className="text-amber-800 underline">
            Cancel
          </button>
        )}
        <button type="button" onClick={() => onAct(s, "Delete")} aria-label={`Delete session: ${short}`} className="text-red-700 underline">
          Delete
        </button>
      </div>
    </li>
  );
}
