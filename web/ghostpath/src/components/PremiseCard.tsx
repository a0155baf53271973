import { useId } from "react";
import type { Premise } from "../types";
import { ScoreSlider } from "./ScoreSlider";

interface Props {
  premise: Premise;
  index: number;
  score: number | undefined;
  comment: string;
  onScore: (score: number) => void;
  onComment: (comment: string) => void;
  disabled?: boolean;
}

/** lineageOf says where a premise comes from: "Evolved from …", "Combined from … + …", or null for a fresh one. */
export function lineageOf(p: Premise): string | null {
  const q = (t: string) => `“${t}”`;
  if (Array.isArray(p.parents) && p.parents.length > 0) {
    const evolved = p.parents.filter((x) => x.relation === "evolved").map((x) => q(x.title));
    const combined = p.parents.filter((x) => x.relation === "combined").map((x) => q(x.title));
    return [evolved.length ? `Evolved from ${evolved.join(" + ")}` : "", combined.length ? `Combined from ${combined.join(" + ")}` : ""]
      .filter(Boolean)
      .join("; ");
  }
  if (p.source_title) return `Evolved from ${q(p.source_title)}`;
  if (p.primary_title) return `Combined from ${[p.primary_title, ...(p.secondary_titles ?? [])].map(q).join(" + ")}`;
  return null;
}

/** PremiseFacts lists what the agent knows about a premise: obviousness, source domain, violated axiom, lineage. */
function PremiseFacts({ premise }: { premise: Premise }) {
  const facts: [string, string][] = [];
  if (typeof premise.obviousness_score === "number")
    facts.push(["Obviousness", `${premise.obviousness_score.toFixed(2)} (0 = bold, 1 = obvious)`]);
  if (premise.cross_domain_source) facts.push(["Source domain", premise.cross_domain_source]);
  if (premise.violated_axiom) facts.push(["Violated axiom", premise.violated_axiom]);
  const lineage = lineageOf(premise);
  if (lineage) facts.push(["Lineage", lineage]);
  if (facts.length === 0) return null;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-gray-600">
      {facts.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium">{k}</dt>
          <dd className="break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** PremiseCard shows one premise with its score slider and comment box. */
export function PremiseCard({ premise, index, score, comment, onScore, onComment, disabled }: Props) {
  const id = useId();
  return (
    <article aria-labelledby={`${id}-title`} className="space-y-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`${id}-title`} className="text-lg font-semibold">
          <span className="text-gray-400">{index + 1}. </span>
          {premise.title}
        </h3>
        {premise.premise_type && (
          <span className="rounded-full bg-purple-100 px-2 py-0.5 text-xs font-medium text-purple-800">
            {premise.premise_type}
          </span>
        )}
      </header>
      <p className="whitespace-pre-line text-gray-700">{premise.body}</p>
      <PremiseFacts premise={premise} />
      <ScoreSlider label={`Score for “${premise.title}”`} value={score} onChange={onScore} disabled={disabled} />
      <div>
        <label htmlFor={`${id}-comment`} className="text-sm font-medium text-gray-700">
          Comment (optional)
        </label>
        <textarea
          id={`${id}-comment`}
          value={comment}
          maxLength={2000}
          rows={2}
          disabled={disabled}
          aria-label={`Comment on “${premise.title}” (optional)`}
          onChange={(e) => onComment(e.target.value)}
          className="mt-1 w-full rounded-lg border border-gray-300 p-2 text-sm"
        />
      </div>
    </article>
  );
}
