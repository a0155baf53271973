import type { Round } from "../state/session";
import { lineageOf } from "./PremiseCard";

/**
 * PastRounds keeps every answered round readable on the session page: each
 * premise with its type, lineage, body, and the user's score, comment and
 * winner. Nothing here can be scored again.
 */
export function PastRounds({ rounds }: { rounds: Round[] }) {
  if (rounds.length === 0) return null;
  return (
    <section aria-labelledby="past-rounds-h" className="space-y-3">
      <h2 id="past-rounds-h" className="text-lg font-semibold">
        Your rounds
      </h2>
      {rounds.map((r) => (
        <details key={r.number} open={r === rounds[rounds.length - 1]} className="rounded-xl border border-gray-200 bg-white p-3">
          <summary className="cursor-pointer font-medium">
            Round {r.number}
            <span className="ml-2 text-sm font-normal text-gray-500">{summary(r)}</span>
          </summary>
          <ol className="mt-3 space-y-3">
            {r.premises.map((p) => {
              const s = r.scores[p.id];
              const lineage = lineageOf(p);
              const winner = r.winnerId === p.id;
              return (
                <li key={p.id} className={`rounded-lg border p-3 text-sm ${winner ? "border-green-500 bg-green-50" : "border-gray-100"}`}>
                  <p className="font-semibold break-words">
                    {p.title}
                    {p.premise_type && <span className="ml-2 text-xs font-normal text-purple-800">{p.premise_type}</span>}
                    {winner && <span className="ml-2 rounded bg-green-100 px-1.5 text-xs text-green-800">★ your winner</span>}
                  </p>
                  {lineage && <p className="text-xs text-gray-500">{lineage}</p>}
                  <p className="mt-1 whitespace-pre-line break-words text-gray-700">{p.body}</p>
                  <p className="mt-1 text-gray-800">
                    {s ? `Your score: ${s.score.toFixed(1)}` : "Not scored"}
                    {s?.comment && <span className="text-gray-600"> — “{s.comment}”</span>}
                  </p>
                </li>
              );
            })}
          </ol>
        </details>
      ))}
    </section>
  );
}

function summary(r: Round): string {
  const n = Object.keys(r.scores).length;
  if (r.winnerId) return "winner picked";
  return n === 0 ? "not scored" : `${n} of ${r.premises.length} scored`;
}
