import { lazy, Suspense, useEffect, useState } from "react";
import { OfflineNote } from "../components/OfflineNote";
import type { Constraint, KataAttempt } from "../protocol/types";
import { navigate } from "../router";
import { modelFeaturesOn } from "../state/app";
import { appStore, useApp } from "../state/store";

const CodeEditor = lazy(() => import("../editor/CodeEditor"));

/** bestLevel is the highest reviewed level among attempts (0 without any). */
export function bestLevel(attempts: Pick<KataAttempt, "level">[] | undefined): number {
  return Math.max(0, ...(attempts ?? []).map((a) => a.level ?? 0));
}

function KataList() {
  const katas = useApp((s) => s.dashboard.state?.katas);
  return (
    <div className="mx-auto max-w-3xl p-4">
      <h1 className="mb-3 text-xl font-semibold">Practice</h1>
      {!katas?.length ? <p className="text-sm text-gray-500">No katas yet. Paige writes them from the gaps a coaching session reveals.</p> : (
        <ul className="divide-y divide-gray-200 rounded border border-gray-200 bg-white">
          {katas.map((k) => (
            <li key={k.id} className="flex items-center justify-between p-3 text-sm">
              <a href={`/practice/${encodeURIComponent(k.id)}`} onClick={(e) => { e.preventDefault(); navigate(`/practice/${encodeURIComponent(k.id)}`); }} className="font-medium text-indigo-700 underline">{k.title}</a>
              <span className="text-gray-500">{k.topic} · {k.constraintCount} constraints · {k.attemptsCount} attempts</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Constraints({ all, level, active, onToggle }: { all: Constraint[]; level: number; active: Set<string>; onToggle: (t: string) => void }) {
  return (
    <ul aria-label="Constraints" className="space-y-1 text-sm">
      {all.map((c) => {
        const unlocked = c.minLevel <= level;
        return (
          <li key={c.title} data-unlocked={unlocked} className={unlocked ? "" : "text-gray-400"}>
            <label className="flex items-start gap-2">
              <input type="checkbox" disabled={!unlocked} checked={active.has(c.title)} onChange={() => onToggle(c.title)} />
              <span><strong>{c.title}</strong> (level {c.minLevel}{unlocked ? "" : ", locked"}): {c.description}</span>
            </label>
          </li>
        );
      })}
    </ul>
  );
}

function Kata({ kataId }: { kataId: string }) {
  const p = useApp((s) => s.practice);
  const model = useApp((s) => modelFeaturesOn(s.conn));
  const summary = useApp((s) => s.dashboard.state?.katas.find((k) => k.id === kataId));
  const [code, setCode] = useState<string | null>(null);
  const [active, setActive] = useState<Set<string>>(() => new Set());
  const store = appStore();
  useEffect(() => { store.openKata(kataId); }, [kataId]); // eslint-disable-line react-hooks/exhaustive-deps
  const kata = p.kata?.kata.id === kataId ? p.kata : null;
  if (!kata)
    return (
      <div className="p-4 text-sm">
        <h1 className="text-xl font-semibold">{summary?.title ?? "Kata"}</h1>
        {p.loadError ? <p role="alert" className="text-red-700">{p.loadError}</p> : <p className="text-gray-500">Loading the kata…</p>}
      </div>
    );
  const level = Math.max(bestLevel(kata.kata.userAttempts), summary?.bestLevel ?? 0);
  const toggle = (t: string) => setActive((a) => { const n = new Set(a); if (n.has(t)) n.delete(t); else n.add(t); return n; });
  const current = code ?? kata.kata.scaffoldingCode;
  return (
    <div className="grid h-full grid-cols-[minmax(300px,2fr)_3fr]">
      <div className="space-y-3 overflow-auto border-r border-gray-200 p-4 text-sm">
        <h1 className="text-xl font-semibold">{kata.kata.title}</h1>
        <p className="whitespace-pre-wrap">{kata.kata.description}</p>
        <h2 className="font-semibold">Constraints (your level: {level})</h2>
        <Constraints all={kata.constraints.length ? kata.constraints : (kata.kata.constraints ?? [])} level={level} active={active} onToggle={toggle} />
        {!model && <OfflineNote what="Reviewing a solution" />}
        <button type="button" disabled={p.submitting || !model} className="rounded bg-indigo-600 px-3 py-1.5 text-white disabled:opacity-50" onClick={() => store.submitKata(kataId, current, [...active])}>
          {p.submitting ? "Reviewing…" : "Submit"}
        </button>
        {model && p.reviewError && <p role="alert" className="text-red-700">{p.reviewError}</p>}
        {p.review && (
          <section aria-label="Review" className={`rounded border p-3 ${p.review.passed ? "border-green-300 bg-green-50" : "border-amber-300 bg-amber-50"}`}>
            <h2 className="font-semibold">Level {p.review.level} · {p.review.passed ? "passed" : "not passed yet"}</h2>
            <p className="whitespace-pre-wrap">{p.review.feedback}</p>
            {p.review.followUp && <p className="mt-1 text-gray-700">Next: {p.review.followUp.reason ?? p.review.followUp.type}{p.review.followUp.constraint && ` (${p.review.followUp.constraint})`}</p>}
            {p.review.unlockedConstraints.length > 0 && (
              <p className="mt-1">Unlocked: {p.review.unlockedConstraints.map((c) => c.title).join(", ")}</p>
            )}
          </section>
        )}
        {!!kata.kata.userAttempts?.length && (
          <section aria-label="Attempts">
            <h2 className="font-semibold">Attempts</h2>
            <ol className="list-decimal pl-5">
              {kata.kata.userAttempts.map((a, i) => (
                <li key={i}>{a.level != null ? `level ${a.level}` : "not reviewed"}{a.passed != null && (a.passed ? ", passed" : ", not passed")}{a.constraints?.length ? ` · ${a.constraints.map((c) => c.title).join(", ")}` : ""}</li>
              ))}
            </ol>
          </section>
        )}
      </div>
      <Suspense fallback={<p className="p-4 text-sm text-gray-500">Loading the editor…</p>}>
        <CodeEditor path={`kata/${kataId}.ts`} language="typescript" value={current} onChange={(v) => setCode(v)} />
      </Suspense>
    </div>
  );
}

/** PracticeView lists the katas, or shows one with its editor, constraints and reviews. */
export function PracticeView({ kataId }: { kataId: string | null }) {
  return kataId ? <Kata kataId={kataId} /> : <KataList />;
}
