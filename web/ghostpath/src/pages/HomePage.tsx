import { useEffect, useState } from "react";
import { createSession, deleteSession, listSessions } from "../api/client";
import { ProblemInput } from "../components/ProblemInput";
import { Link, navigate } from "../router";
import type { SessionSummary } from "../types";

const STATUS: Record<string, string> = {
  created: "bg-gray-100 text-gray-700",
  active: "bg-blue-100 text-blue-800",
  resolved: "bg-green-100 text-green-800",
  cancelled: "bg-amber-100 text-amber-800",
};

/** HomePage: the problem input and the list of past sessions. */
export function HomePage() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);

  const refresh = () =>
    listSessions(50)
      .then((s) => {
        setSessions(s);
        setListError(null);
      })
      .catch((e: Error) => setListError(e.message));

  useEffect(() => {
    void refresh();
  }, []);

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

  const remove = async (s: SessionSummary) => {
    if (!window.confirm(`Delete this session?\n\n${s.problem.slice(0, 120)}`)) return;
    try {
      await deleteSession(s.id);
      await refresh();
    } catch (e) {
      setListError((e as Error).message);
    }
  };

  return (
    <div className="space-y-10">
      <ProblemInput onSubmit={start} busy={busy} error={error} />
      <section aria-labelledby="past-h" className="space-y-3">
        <h2 id="past-h" className="text-lg font-semibold">
          Past sessions
        </h2>
        {listError && (
          <p role="alert" className="text-sm text-red-700">
            Could not load sessions: {listError}
          </p>
        )}
        {sessions === null && !listError && <p className="text-sm text-gray-500">Loading…</p>}
        {sessions?.length === 0 && <p className="text-sm text-gray-500">No sessions yet.</p>}
        <ul className="space-y-2">
          {sessions?.map((s) => (
            <li key={s.id} className="flex flex-col gap-2 rounded-xl border border-gray-200 bg-white p-3 sm:flex-row sm:items-center">
              <Link to={`sessions/${encodeURIComponent(s.id)}`} className="min-w-0 flex-1 hover:underline">
                <span className="line-clamp-2 break-words">{s.problem}</span>
              </Link>
              <div className="flex shrink-0 items-center gap-2 text-xs">
                <span className={`rounded-full px-2 py-0.5 ${STATUS[s.status] ?? STATUS.created}`}>{s.status}</span>
                {s.created_at && <time dateTime={s.created_at}>{new Date(s.created_at).toLocaleString()}</time>}
                <Link to={`sessions/${encodeURIComponent(s.id)}/report`} className="text-blue-700 underline">
                  Report
                </Link>
                {s.status !== "active" && (
                  <button
                    type="button"
                    onClick={() => void remove(s)}
                    aria-label={`Delete session: ${s.problem.slice(0, 80)}`}
                    className="text-red-700 underline"
                  >
                    Delete
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
