import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Splitter, usePaneSize } from "../components/Splitter";
import { plural } from "../lib/plural";
import type { Highlight, InProgressSession } from "../protocol/types";
import { navigate } from "../router";
import { modelFeaturesOn } from "../state/app";
import { appStore, useApp } from "../state/store";
import { isDirty } from "../state/workspace";
import { CoachPanel, Explain } from "./CoachPanel";
import { FileTree } from "./FileTree";
import { SearchPanel } from "./SearchPanel";
import { TreeActions } from "./TreeActions";

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
  const model = useApp((st) => modelFeaturesOn(st.conn));
  const store = appStore();
  if (!s.completed && !s.ended) return null;
  const c = s.completed;
  return (
    <section role="dialog" aria-label="Session summary" className="m-3 max-w-lg rounded-lg border border-green-200 bg-green-50 p-4 text-sm">
      <h2 className="mb-2 text-lg font-semibold">Session complete</h2>
      {s.ended && <p>Duration: {plural(Math.round(s.ended.durationMs / 60000), "minute")}</p>}
      {c ? (
        <ul className="my-2 space-y-0.5" aria-label="Wrap-up">
          <li><strong data-testid="sum-gaps">{c.knowledgeGaps}</strong> {c.knowledgeGaps === 1 ? "knowledge gap" : "knowledge gaps"} found</li>
          <li><strong data-testid="sum-katas">{c.kataSpecs}</strong> {c.kataSpecs === 1 ? "kata" : "katas"} written</li>
          <li><strong data-testid="sum-dreyfus">{c.dreyfusUpdates}</strong> Dreyfus {c.dreyfusUpdates === 1 ? "stage" : "stages"} updated</li>
          <li><strong data-testid="sum-memories">{c.memoriesStored}</strong> {c.memoriesStored === 1 ? "memory" : "memories"} stored</li>
        </ul>
      ) : model ? (
        <p className="my-2 text-gray-600">The wrap-up (gaps, katas, skills) is running now; its results appear here.</p>
      ) : (
        <p className="my-2 text-gray-600">The wrap-up (gaps, katas, skills) is queued: it runs once Paige has a Claude key (set <code>ANTHROPIC_API_KEY</code> and restart <code>paige serve</code>).</p>
      )}
      <div className="flex gap-2">
        <button type="button" className="rounded bg-indigo-600 px-3 py-1 text-white" onClick={() => { store.dispatch({ kind: "summary/dismiss" }); navigate("/"); }}>Back to the dashboard</button>
        <button type="button" className="rounded border border-gray-300 px-3 py-1" onClick={() => store.dispatch({ kind: "summary/dismiss" })}>Close</button>
      </div>
    </section>
  );
}

const noSessions: InProgressSession[] = [];

/** SessionBar is the Work view's top line: the coaching session and End session, or how to start one (the project stays open either way). */
function SessionBar({ panel, onPanel }: { panel: boolean; onPanel: () => void }) {
  const session = useApp((s) => s.session);
  const sessions = useApp((s) => s.dashboard.state?.inProgressSessions ?? noSessions);
  const store = appStore();
  const btn = "shrink-0 rounded border border-gray-300 px-2 py-0.5";
  if (session.status === "active")
    return (
      <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1 border-b border-gray-200 bg-indigo-50 px-3 py-1.5 text-sm">
        <span className="rounded bg-indigo-600 px-1.5 text-xs text-white">Coaching</span>
        <span className="min-w-0 truncate font-medium">{session.issue ? `${session.issue.number != null ? `#${session.issue.number} ` : ""}${session.issue.title}` : "Coaching session"}</span>
        <span className="ml-auto flex flex-wrap gap-2">
          <button type="button" className={btn} aria-pressed={panel} onClick={onPanel}>{panel ? "Hide coaching panel" : "Show coaching panel"}</button>
          <button type="button" className={`${btn} bg-white`} onClick={store.endSession}>End session</button>
        </span>
      </div>
    );
  return (
    <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1 border-b border-gray-200 bg-white px-3 py-1.5 text-sm">
      <span className="text-gray-600">No coaching session. Start one with <code>/paige:coach</code> in Claude Code, or here:</span>
      <button type="button" disabled={session.status === "starting"} className="shrink-0 rounded bg-indigo-600 px-2 py-0.5 text-white disabled:opacity-50" onClick={() => store.startSession()}>
        {session.status === "starting" ? "Starting…" : "Start a session"}
      </button>
      {sessions.slice(0, 3).map((s) => (
        <button key={s.id} type="button" className={btn} onClick={() => store.resumeSession(s.id)}>Resume {s.issueTitle ?? "session"}</button>
      ))}
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

/** WorkView is the IDE: file tree and search, editor tabs and terminal, always; the coaching panel while a session runs. Panes are resizable. */
export function WorkView() {
  const active = useApp((s) => s.session.status === "active");
  const explaining = useApp((s) => s.session.explain !== null);
  const tree = useApp((s) => s.workspace.tree);
  const hints = useApp((s) => s.workspace.hints);
  const open = useApp((s) => s.workspace.active);
  const terminal = useApp((s) => s.conn.terminal);
  const store = appStore();
  const [left, setLeft] = usePaneSize("tree", 220, 140, 480);
  const [right, setRight] = usePaneSize("coach", 300, 220, 560);
  const [term, setTerm] = usePaneSize("terminal", 200, 80, 600);
  const [panel, setPanel] = useState(true);
  const [side, setSide] = useState<"files" | "search">("files");
  const [selected, setSelected] = useState<{ path: string; dir: boolean } | null>(null);
  useEffect(() => setSelected(null), [open]); // a newly active file becomes the selection
  const sel = selected ?? (open ? { path: open, dir: false } : null);
  const tab = (id: "files" | "search", label: string) => (
    <button type="button" role="tab" aria-selected={side === id} onClick={() => setSide(id)}
      className={`px-2 py-1 ${side === id ? "border-b-2 border-indigo-600 font-medium" : "text-gray-500"}`}>{label}</button>
  );
  return (
    <div className="flex h-full min-h-0 flex-col">
      <SessionBar panel={panel} onPanel={() => setPanel((p) => !p)} />
      <Summary />
      <div className="flex min-h-0 flex-1">
        <div className="flex min-h-0 shrink-0 flex-col bg-white" style={{ width: left }}>
          <div role="tablist" aria-label="Project" className="flex shrink-0 border-b border-gray-200 text-xs">{tab("files", "Files")}{tab("search", "Search")}</div>
          {side === "files" ? (
            <>
              <TreeActions selected={sel?.path ?? null} selectedIsDir={!!sel?.dir} onCreate={store.createEntry} onRename={store.renameEntry}
                onDelete={(p) => { store.deleteEntry(p); setSelected(null); }} />
              <div className="min-h-0 flex-1">
                <FileTree root={tree} hints={hints} active={open} selected={sel?.path ?? null}
                  onSelect={(path, dir) => setSelected({ path, dir })} onOpen={(p) => { setSelected(null); store.openFile(p); }} />
              </div>
            </>
          ) : <SearchPanel />}
        </div>
        <Splitter axis="x" size={left} dir={1} onResize={setLeft} label="Resize the file tree" />
        <div className="flex min-h-0 min-w-0 flex-1 flex-col">
          <Editor />
          <Splitter axis="y" size={term} dir={-1} onResize={setTerm} label="Resize the terminal" />
          <div className="shrink-0 bg-gray-900" style={{ height: term }}>
            <Suspense fallback={<p className="p-3 text-sm text-gray-400">Loading the terminal…</p>}>
              <TerminalPanel info={terminal} />
            </Suspense>
          </div>
        </div>
        {!active && explaining && (
          <div className="min-h-0 w-72 shrink-0 overflow-auto border-l border-gray-200 bg-gray-50 p-2">
            <Explain />
          </div>
        )}
        {active && panel && (
          <>
            <Splitter axis="x" size={right} dir={-1} onResize={setRight} label="Resize the coaching panel" />
            <div className="min-h-0 shrink-0 bg-gray-50" style={{ width: right }}>
              <CoachPanel />
            </div>
          </>
        )}
      </div>
    </div>
  );
}
