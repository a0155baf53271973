import { useId, useState } from "react";
import type { Premise, PremiseScore } from "../types";
import { PremiseCard } from "./PremiseCard";

interface Props {
  premises: Premise[];
  roundNumber: number;
  onSubmitScores: (scores: PremiseScore[]) => void;
  onResolve: (winnerIndex: number, scores: Record<string, number>) => void;
  /** busy disables the actions while a turn is running. */
  busy?: boolean;
}

/** scoresFor builds the user-input scores of a round, or null unless every premise is scored. */
export function scoresFor(
  premises: Premise[],
  scores: Record<string, number>,
  comments: Record<string, string>,
): PremiseScore[] | null {
  if (premises.length === 0 || !premises.every((p) => scores[p.id] !== undefined)) return null;
  return premises.map((p) => {
    const comment = comments[p.id]?.trim();
    return { premise_id: p.id, premise_title: p.title, score: scores[p.id]!, ...(comment ? { comment } : {}) };
  });
}

/** RoundView shows a round's three premises; "Next Round" is enabled once all are scored. */
export function RoundView({ premises, roundNumber, onSubmitScores, onResolve, busy = false }: Props) {
  const [scores, setScores] = useState<Record<string, number>>({});
  const [comments, setComments] = useState<Record<string, string>>({});
  const [resolving, setResolving] = useState(false);
  const [winner, setWinner] = useState<number | null>(null);
  const id = useId();
  const result = scoresFor(premises, scores, comments);
  const remaining = premises.filter((p) => scores[p.id] === undefined).length;

  return (
    <section aria-labelledby={`${id}-h`} className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-h`} className="text-xl font-bold">
          Round {roundNumber}
        </h2>
        <span className="text-sm text-gray-500">Rate each premise from 0.0 to 10.0</span>
      </div>
      <div className="space-y-4">
        {premises.map((p, i) => (
          <PremiseCard
            key={p.id}
            premise={p}
            index={i}
            score={scores[p.id]}
            comment={comments[p.id] ?? ""}
            disabled={busy}
            onScore={(s) => setScores((prev) => ({ ...prev, [p.id]: s }))}
            onComment={(c) => setComments((prev) => ({ ...prev, [p.id]: c }))}
          />
        ))}
      </div>
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="flex-1">
          <button
            type="button"
            onClick={() => result && onSubmitScores(result)}
            disabled={!result || busy}
            aria-describedby={`${id}-next`}
            className="w-full rounded-xl bg-gray-900 py-3 font-medium text-white hover:bg-gray-800 disabled:cursor-not-allowed disabled:opacity-40"
          >
            Next Round →
          </button>
          <p id={`${id}-next`} className="mt-1 text-center text-xs text-gray-500">
            {remaining > 0 ? `Score ${remaining} more premise${remaining === 1 ? "" : "s"} to continue.` : "All premises scored."}
          </p>
        </div>
        {!resolving ? (
          <button
            type="button"
            onClick={() => setResolving(true)}
            disabled={busy}
            className="h-fit rounded-xl bg-green-600 px-6 py-3 font-medium text-white hover:bg-green-700 disabled:opacity-40"
          >
            ✓ Problem Resolved
          </button>
        ) : (
          <fieldset className="flex-1 space-y-2 rounded-xl border-2 border-green-200 bg-green-50 p-4">
            <legend className="px-1 text-sm font-medium text-green-800">Which premise solves your problem?</legend>
            {premises.map((p, i) => (
              <label key={p.id} className="flex cursor-pointer items-start gap-2 rounded-lg border border-green-300 bg-white px-3 py-2">
                <input
                  type="radio"
                  name={`${id}-winner`}
                  value={i}
                  checked={winner === i}
                  onChange={() => setWinner(i)}
                  className="mt-1"
                />
                <span>
                  <span className="font-medium">{p.title}</span>
                  {scores[p.id] !== undefined && (
                    <span className="ml-2 text-sm text-gray-500">({scores[p.id]!.toFixed(1)})</span>
                  )}
                </span>
              </label>
            ))}
            <div className="flex gap-3 pt-1">
              <button
                type="button"
                disabled={winner === null || busy}
                onClick={() => winner !== null && onResolve(winner, scores)}
                className="rounded-lg bg-green-700 px-4 py-2 text-sm font-medium text-white disabled:opacity-40"
              >
                Generate final spec
              </button>
              <button
                type="button"
                onClick={() => {
                  setResolving(false);
                  setWinner(null);
                }}
                className="text-sm text-gray-600 underline"
              >
                Cancel
              </button>
            </div>
          </fieldset>
        )}
      </div>
    </section>
  );
}
