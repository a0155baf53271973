import { useEffect, useState } from "react";
import { exportURL, getSession, sessionName, specURL } from "../api/client";
import { EvoTree } from "../components/EvoTree";
import { LineageGraph } from "../components/LineageGraph";
import { Link } from "../router";
import { loadRounds } from "../state/history";
import { type Round, roundsFromRecords, withLocalScores } from "../state/session";
import type { SessionDetail } from "../types";

/** ReportPage shows a session's evolution: every round, its premises, scores and the winner. */
export function ReportPage({ id }: { id: string }) {
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  const [rounds, setRounds] = useState<Round[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    getSession(id)
      .then((d) => {
        if (!live) return;
        setDetail(d);
        const stored = roundsFromRecords(d.rounds);
        const local = loadRounds(id);
        setRounds(stored.length > 0 ? withLocalScores(stored, local) : local);
      })
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [id]);

  const scored = rounds.flatMap((r) => Object.values(r.scores).map((s) => s.score));
  const avg = scored.length > 0 ? scored.reduce((a, b) => a + b, 0) / scored.length : null;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap gap-3 text-sm">
        <Link to="" className="text-blue-700 underline">
          ← Sessions
        </Link>
        <Link to={`sessions/${encodeURIComponent(id)}`} className="text-blue-700 underline">
          Back to the session
        </Link>
      </div>
      <h1 className="text-xl font-bold">Evolution report{detail?.title ? `: ${sessionName(detail)}` : ""}</h1>
      {error && (
        <p role="alert" className="text-red-700">
          Could not load the session: {error}
        </p>
      )}
      {detail && (
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          <div className="col-span-2 sm:col-span-4">
            <dt className="text-gray-500">Problem</dt>
            <dd className="whitespace-pre-line break-words">{detail.problem}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Status</dt>
            <dd>{detail.status}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Rounds</dt>
            <dd>{rounds.length}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Average score</dt>
            <dd>{avg === null ? "–" : avg.toFixed(1)}</dd>
          </div>
          <div>
            <dt className="text-gray-500">Tokens used</dt>
            <dd>{(detail.total_tokens_used ?? 0).toLocaleString("en-US")}</dd>
          </div>
        </dl>
      )}
      <LineageGraph rounds={rounds} fileName={`ghostpath-${id}-lineage.svg`} />
      <EvoTree rounds={rounds} />
      <div className="flex flex-wrap items-center gap-3 text-sm">
        {detail?.spec_url && (
          <a href={specURL(id)} download className="inline-block rounded-lg bg-green-700 px-4 py-2 font-medium text-white">
            Download the final spec (.md)
          </a>
        )}
        <a href={exportURL(id, "md")} download className="rounded-lg border border-gray-300 px-3 py-2 hover:bg-gray-50">
          Export session (.md)
        </a>
        <a href={exportURL(id, "json")} download className="rounded-lg border border-gray-300 px-3 py-2 hover:bg-gray-50">
          Export session (.json)
        </a>
      </div>
    </div>
  );
}
