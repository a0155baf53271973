import { lazy, Suspense, useRef } from "react";
import type { Highlight } from "../protocol/types";
import { navigate } from "../router";
import { appStore, useApp } from "../state/store";
import { isDirty } from "../state/workspace";
import { CoachPanel } from "./CoachPanel";
import { FileTree } from "./FileTree";

const CodeEditor = lazy(() => import("../editor/CodeEditor"));
const TerminalPanel = lazy(() => import("./TerminalPanel"));

const none: Highlight[] = [];

/** withDecorations joins Claude's highlights and the coaching decorations of one file (stable when both are empty). */
function withDecorations(h: Highlight[] | undefined, d: Highlight[] | undefined): Highlight[] {
  if (!d?.length) return h ?? none;
  return h?.length ? [...h, ...d] : d;
}

function Summary() {
  const s = useApp((st) => st.session);
  const store = appStore();
  if (!s.completed && !s.ended) return null;
  const c = s.completed;
  return (
    <section role="dialog" aria-label="Session summary" className="m-4 max-w-lg rounded-lg border border-green-200 bg-green-50 p-4 text-sm">
      <h2 className="mb-2 text-lg font-semibold">Session complete</h2>
      {s.ended && <p>Duration: {Math.round(s.ended.durationMs / 60000)} min</p>}
      {c ? (
        <ul className="my-2 space-y-0.5" aria-label="Wrap-up">
          <li><strong data-testid="sum-gaps">{c.knowledgeGaps}</strong> knowledge gaps found</li>
          <li><strong data-testid="sum-katas">{c.kataSpecs}</strong> katas written</li>
          <li><strong data-testid="sum-dreyfus">{c.dreyfusUpdates}</strong> Dreyfus stages updated</li>
          <li><strong data-testid="sum-memories">{c.memoriesStored}</strong> memories stored</li>
        </ul>
      ) : <p className="my-2 text-gray-600">The wrap-up (gaps, katas, skills) runs when Claude Code ends the session.</p>}
      <div className="flex gap-2">
        <button type="button" className="rounded bg-indigo-600 px-3 py-1 text-white" onClick={() => { store.dispatch({ kind: "summary/dismiss" }); navigate("/"); }}>Back to the dashboard</button>
        <button type="button" className="rounded border border-gray-300 px-3 py-1" onClick={() => store.dispatch({ kind: "summary/dismiss" })}>Close</button>
      </div>
    </section>
  );
}

function Start() {
  const status = useApp((s) => s.session.status);
  const sessions = useApp((s) => s.dashboard.state?.inProgressSessions ?? []);
  const store = appStore();
  return (
    <div className="p-6">
      <Summary />
      <h1 className="mb-2 text-xl font-semibold">No active session</h1>
      <p className="mb-3 text-sm text-gray-600">Start a session to open the project, or pick an issue on the dashboard.</p>
      <button type="button" disabled={status === "starting"} className="rounded bg-indigo-600 px-3 py-1.5 text-white disabled:opacity-50" onClick={() => store.startSession()}>
        {status === "starting" ? "Starting…" : "Start a session"}
      </button>
      {sessions.length > 0 && (
        <ul className="mt-4 text-sm">
          {sessions.map((s) => (
            <li key={s.id}>
              {s.issueTitle ?? "Session"} <button type="button" className="ml-2 text-indigo-700 underline" onClick={() => store.resumeSession(s.id)}>Resume</button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Editor() {
  const ws = useApp((s) => s.workspace);
  const explainRef = useRef<(() => void) | null>(null);
  const store = appStore();
  const tab = ws.tabs.find((t) => t.path === ws.active);
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div role="tablist" aria-label="Open files" className="flex shrink-0 items-center overflow-x-auto border-b border-gray-200 bg-gray-100 text-sm">
        {ws.tabs.map((t) => (
          <div key={t.path} role="tab" aria-selected={t.path === ws.active} data-path={t.path}
            className={`flex items-center gap-1 border-r border-gray-200 px-3 py-1.5 ${t.path === ws.active ? "bg-white" : ""}`}>
            <button type="button" onClick={() => store.activate(t.path)}>{t.path.split("/").pop()}</button>
            {isDirty(t) && <span aria-label="unsaved" title="unsaved">●</span>}
            <button type="button" aria-label={`Close ${t.path}`} className="text-gray-400 hover:text-gray-800" onClick={() => store.closeTab(t.path)}>×</button>
          </div>
        ))}
        {tab && (
          <div className="ml-auto flex items-center gap-2 px-2 text-xs">
            <span role="status" aria-label="Save status" className={tab.saveError ? "text-red-700" : "text-gray-500"}>
              {tab.saveError ? `Save failed: ${tab.saveError}` : tab.saving !== null ? "Saving…" : isDirty(tab) ? "Unsaved" : tab.savedAt ? "Saved" : ""}
            </span>
            <button type="button" className="rounded border border-violet-300 bg-white px-2 py-0.5 text-violet-800" onClick={() => explainRef.current?.()} title="Ctrl/Cmd+Shift+E">
              Explain This
            </button>
          </div>
        )}
      </div>
      <div className="min-h-0 flex-1">
        {!tab ? <p className="p-4 text-sm text-gray-500">Open a file from the tree.</p> : tab.binary ? <p className="p-4 text-sm">{tab.path} is a binary file.</p> : (
          <Suspense fallback={<p className="p-4 text-sm text-gray-500">Loading the editor…</p>}>
            <CodeEditor
              path={tab.path}
              language={tab.language}
              value={tab.content}
              highlights={withDecorations(ws.highlights[tab.path], ws.decorations[tab.path])}
              hovers={ws.hovers[tab.path]}
              reveal={ws.reveal?.path === tab.path ? ws.reveal : null}
              explainRef={explainRef}
              onChange={(v, line, col) => store.edit(tab.path, v, line, col)}
              onSave={() => store.save(tab.path)}
              onExplain={store.explain}
              onSelection={(r, n) => store.selection(tab.path, r, n)}
            />
          </Suspense>
        )}
      </div>
    </div>
  );
}

/** WorkView is the IDE: file tree, editor tabs, terminal and the coaching panel. */
export function WorkView() {
  const session = useApp((s) => s.session);
  const tree = useApp((s) => s.workspace.tree);
  const hints = useApp((s) => s.workspace.hints);
  const active = useApp((s) => s.workspace.active);
  const terminal = useApp((s) => s.conn.terminal);
  const store = appStore();
  if (session.status !== "active") return <Start />;
  return (
    <div className="grid h-full grid-cols-[240px_1fr_320px] grid-rows-[auto_1fr]">
      <div className="col-span-3 flex items-center gap-3 border-b border-gray-200 bg-white px-3 py-1.5 text-sm">
        <span className="font-medium">{session.issue ? `${session.issue.number != null ? `#${session.issue.number} ` : ""}${session.issue.title}` : "Coaching session"}</span>
        <button type="button" className="ml-auto rounded border border-gray-300 px-2 py-0.5" onClick={store.endSession}>End session</button>
      </div>
      <div className="min-h-0 border-r border-gray-200 bg-white">
        <FileTree root={tree} hints={hints} active={active} onOpen={store.openFile} />
      </div>
      <div className="flex min-h-0 flex-col">
        <Editor />
        <div className="h-56 shrink-0 border-t border-gray-300 bg-gray-900">
          <Suspense fallback={<p className="p-3 text-sm text-gray-400">Loading the terminal…</p>}>
            <TerminalPanel info={terminal} />
          </Suspense>
        </div>
      </div>
      <div className="min-h-0 border-l border-gray-200 bg-gray-50">
        <CoachPanel />
      </div>
    </div>
  );
}
