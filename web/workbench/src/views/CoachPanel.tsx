import { OfflineNote } from "../components/OfflineNote";
import { modelFeaturesOn } from "../state/app";
import { appStore, useApp } from "../state/store";

/** HINT_LEVELS are the coach's hint levels, least help first. */
export const HINT_LEVELS = ["none", "file", "region", "line"] as const;

const statusBadge: Record<string, string> = {
  pending: "bg-gray-100 text-gray-600",
  active: "bg-indigo-100 text-indigo-800",
  complete: "bg-green-100 text-green-800",
};

/** Explain shows the last Explain This answer (in the coaching panel, or beside the editor without a session). */
export function Explain() {
  const ex = useApp((s) => s.session.explain);
  const model = useApp((s) => modelFeaturesOn(s.conn));
  const store = appStore();
  if (!ex) return null;
  return (
    <section aria-label="Explanation" className="rounded border border-violet-200 bg-violet-50 p-3 text-sm">
      <div className="mb-1 flex items-center justify-between">
        <h3 className="font-semibold">Explain This</h3>
        <button type="button" aria-label="Close explanation" onClick={() => store.dispatch({ kind: "explain/close" })}>×</button>
      </div>
      {!model ? <OfflineNote what="Explain This" /> : (
        <>
          {ex.status === "loading" && <p className="text-gray-600">Explaining {ex.path}…</p>}
          {ex.status === "error" && <p role="alert" className="text-red-700">{ex.error}</p>}
        </>
      )}
      {ex.response && (
        <div className="space-y-2">
          <p>{ex.response.explanation}</p>
          {ex.response.keyConcepts.length > 0 && (
            <div><h4 className="font-medium">Key concepts</h4>
              <ul className="flex flex-wrap gap-1">{ex.response.keyConcepts.map((k) => <li key={k} className="rounded bg-white px-1.5">{k}</li>)}</ul></div>
          )}
          {ex.response.analogy && <p><span className="font-medium">Analogy: </span>{ex.response.analogy}</p>}
          {ex.response.phaseConnection && <p className="text-gray-600">{ex.response.phaseConnection}</p>}
          {!!ex.response.relatedFiles?.length && (
            <div><h4 className="font-medium">Related files</h4>
              <ul>{ex.response.relatedFiles.map((f) => (
                <li key={f}><button type="button" className="text-indigo-700 underline" onClick={() => store.openFile(f)}>{f}</button></li>
              ))}</ul></div>
          )}
        </div>
      )}
    </section>
  );
}

/** CoachPanel is the Work view's side panel: issue, phases, hint level, Observer, messages and explanations. */
export function CoachPanel() {
  const s = useApp((st) => st.session);
  const store = appStore();
  return (
    <aside aria-label="Coaching" className="flex h-full flex-col gap-3 overflow-auto p-3 text-sm">
      {s.issue && (
        <section aria-label="Issue">
          <h3 className="font-semibold">{s.issue.number != null && `#${s.issue.number} `}{s.issue.title}</h3>
          {s.issue.summary && <p className="text-gray-600">{s.issue.summary}</p>}
          {s.issue.url && <a href={s.issue.url} target="_blank" rel="noreferrer noopener" className="text-indigo-700 underline">Open on GitHub</a>}
        </section>
      )}
      <section aria-label="Phases">
        <h3 className="mb-1 font-semibold">Plan</h3>
        {s.phases.length === 0 ? <p className="text-gray-500">No plan yet. Claude Code builds one with paige_run_coaching_pipeline.</p> : (
          <ol className="space-y-1">
            {s.phases.map((p) => (
              <li key={p.id ?? p.number} data-phase={p.number} data-status={p.status} className="rounded border border-gray-200 bg-white p-2">
                <div className="flex items-center justify-between gap-2">
                  <span className="font-medium">{p.number}. {p.title}</span>
                  <span className={`rounded px-1.5 text-xs ${statusBadge[p.status] ?? statusBadge.pending}`}>{p.status}</span>
                </div>
                {p.description && <p className="text-gray-600">{p.description}</p>}
              </li>
            ))}
          </ol>
        )}
        {s.plan?.memoryConnection && <p className="mt-1 text-gray-600">{s.plan.memoryConnection}</p>}
      </section>
      <label className="flex items-center gap-2">
        <span className="font-medium">Hints</span>
        <select aria-label="Hint level" value={s.hintLevel} onChange={(e) => store.setHintLevel(e.target.value)} className="rounded border border-gray-300 px-1 py-0.5">
          {HINT_LEVELS.map((l) => <option key={l} value={l}>{l}</option>)}
        </select>
      </label>
      <section aria-label="Observer" className="flex items-center justify-between">
        <span>Observer: <span data-testid="observer-status">{!s.observer.active ? "off" : s.observer.muted ? "muted" : "watching"}</span></span>
        <button type="button" disabled={!s.observer.active} aria-pressed={s.observer.muted}
          className="rounded border border-gray-300 px-2 py-0.5 disabled:opacity-50" onClick={() => store.mute(!s.observer.muted)}>
          {s.observer.muted ? "Unmute nudges" : "Mute nudges"}
        </button>
      </section>
      <Explain />
      {s.messages.length > 0 && (
        <section aria-label="Coaching messages">
          <h3 className="mb-1 font-semibold">Messages</h3>
          <ul className="space-y-1">
            {s.messages.map((m, i) => (
              <li key={i} className="rounded bg-white p-2">
                <p>{m.message}</p>
                {m.anchor && (
                  <button type="button" className="text-indigo-700 underline" onClick={() => store.reveal(m.anchor!.path, m.anchor!.startLine)}>
                    {m.anchor.path}:{m.anchor.startLine}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </aside>
  );
}
