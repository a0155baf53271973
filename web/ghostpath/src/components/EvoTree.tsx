import { key, parentLinks } from "../lib/lineage";
import type { Round } from "../state/session";

/** EvoNode is one premise in the evolution tree. */
export interface EvoNode {
  id: string;
  round: number;
  title: string;
  type?: string;
  score?: number;
  comment?: string;
  winner: boolean;
  best: boolean;
  /** The premises this one comes from, if known: evolved (mutated) or combined (cross-pollinated) from them. */
  parents: { id: string; round: number; title: string; kind: "evolved" | "combined" }[];
}

/**
 * buildEvolution turns rounds into tree nodes: scores and winners per premise,
 * the best-scored premise of each round, and links to every parent (the
 * server's, else the latest earlier premise of each lineage title; lib/lineage).
 */
export function buildEvolution(rounds: Round[]): EvoNode[][] {
  const byTitle = new Map<string, string>();
  const seen = new Map<string, { id: string; round: number; title: string }>();
  return rounds.map((r) => {
    const scored = r.premises.map((p) => r.scores[p.id]?.score).filter((s): s is number => s !== undefined);
    const top = scored.length > 0 ? Math.max(...scored) : undefined;
    const nodes = r.premises.map((p): EvoNode => {
      const s = r.scores[p.id];
      const parents = parentLinks(p, byTitle)
        .filter((l) => seen.has(l.from))
        .map((l) => ({ ...seen.get(l.from)!, kind: l.kind }));
      return {
        id: p.id,
        round: r.number,
        title: p.title,
        type: p.premise_type,
        score: s?.score,
        comment: s?.comment,
        winner: r.winnerId === p.id,
        best: s !== undefined && s.score === top,
        parents,
      };
    });
    for (const n of nodes) {
      byTitle.set(key(n.title), n.id);
      seen.set(n.id, { id: n.id, round: n.round, title: n.title });
    }
    return nodes;
  });
}

/** EvoTree draws the evolution of a session: rounds, their premises, scores and lineage. */
export function EvoTree({ rounds }: { rounds: Round[] }) {
  const tree = buildEvolution(rounds);
  if (tree.length === 0) return <p className="text-gray-500">No rounds yet.</p>;
  return (
    <ol aria-label="Evolution tree" className="space-y-6 border-l-2 border-gray-200 pl-4">
      {tree.map((nodes, i) => (
        <li key={rounds[i]!.number} className="relative">
          <span aria-hidden="true" className="absolute -left-[1.45rem] top-1 h-3 w-3 rounded-full bg-gray-400" />
          <h3 className="font-semibold">Round {rounds[i]!.number}</h3>
          <ul className="mt-2 grid gap-3 md:grid-cols-3">
            {nodes.map((n) => (
              <li
                key={n.id}
                id={`premise-${n.id}`}
                className={`rounded-xl border bg-white p-3 text-sm ${n.winner ? "border-green-500 ring-2 ring-green-200" : "border-gray-200"}`}
              >
                <p className="font-medium">
                  {n.title}
                  {n.winner && <span className="ml-2 rounded bg-green-100 px-1.5 text-xs text-green-800">★ your winner</span>}
                  {n.best && !n.winner && <span className="ml-2 rounded bg-blue-100 px-1.5 text-xs text-blue-800">best of round</span>}
                </p>
                {n.type && <p className="text-xs text-gray-500">{n.type}</p>}
                {n.parents.map((par) => (
                  <p key={par.id} className="text-xs text-gray-600">
                    {par.kind === "evolved" ? "evolved from" : "combined from"} <a href={`#premise-${par.id}`} className="underline">{par.title}</a> (round {par.round})
                  </p>
                ))}
                {n.score !== undefined ? (
                  <div className="mt-2">
                    <div className="flex justify-between text-xs">
                      <span>Score</span>
                      <span aria-label={`score ${n.score.toFixed(1)} of 10`}>{n.score.toFixed(1)}</span>
                    </div>
                    <div aria-hidden="true" className="h-1.5 rounded-full bg-gray-200">
                      <div className="h-full rounded-full bg-blue-500" style={{ width: `${n.score * 10}%` }} />
                    </div>
                  </div>
                ) : (
                  <p className="mt-2 text-xs text-gray-400">not scored</p>
                )}
                {n.comment && <p className="mt-1 text-xs italic text-gray-600">“{n.comment}”</p>}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
