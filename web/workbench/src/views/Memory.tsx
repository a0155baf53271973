import { type ReactNode, useCallback, useEffect, useReducer, useRef, useState } from "react";
import { ApiError, type CoachMemory, type LearnedEntry, type MemoryApi, memoryApi, type SeedProposal } from "../memory/api";
import { useApp } from "../state/store";
import { initialMemory, pendingCount, reduceMemory } from "../state/memory";

/** SEARCH_DELAY is how long typing pauses before the page searches, in ms. */
export const SEARCH_DELAY = 250;

const when = (iso?: string) => (iso ? iso.slice(0, 16).replace("T", " ") : "");

function Section({ title, count, children, note }: { title: string; count: number; children: ReactNode; note?: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-gray-200 bg-white p-4">
      <h2 className="mb-1 font-semibold">
        {title} <span className="text-sm font-normal text-gray-500">({count})</span>
      </h2>
      {note && <p className="mb-2 text-xs text-gray-500">{note}</p>}
      {children}
    </section>
  );
}

/** More says how many matching items are not listed. */
function More({ n }: { n: number }) {
  return n > 0 ? <p className="mt-2 text-xs text-gray-500">{n} more not listed; search to narrow them down.</p> : null;
}

function Badge({ children, tone = "gray" }: { children: ReactNode; tone?: "gray" | "indigo" | "green" | "amber" | "red" }) {
  const tones = { gray: "bg-gray-100 text-gray-700", indigo: "bg-indigo-100 text-indigo-800", green: "bg-green-100 text-green-800", amber: "bg-amber-100 text-amber-800", red: "bg-red-100 text-red-800" };
  return <span className={`rounded px-1.5 py-0.5 text-xs ${tones[tone]}`}>{children}</span>;
}

const statusTone = (s: string) => (s === "accepted" ? "green" : s === "rejected" ? "red" : "amber");

/** Editable shows text, or a textarea with Save/Cancel while editing. */
function Editable({ label, text, busy, onSave }: { label: string; text: string; busy: boolean; onSave: (t: string) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null)
    return (
      <div className="flex items-start gap-2">
        <p className="flex-1 whitespace-pre-wrap">{text}</p>
        <button type="button" className="text-xs text-indigo-700 underline" aria-label={`Edit ${label}`} onClick={() => setDraft(text)}>Edit</button>
      </div>
    );
  return (
    <form className="space-y-1" onSubmit={(e) => { e.preventDefault(); onSave(draft); setDraft(null); }}>
      <textarea aria-label={`New content of ${label}`} className="w-full rounded border border-gray-300 p-1" rows={2} value={draft} onChange={(e) => setDraft(e.target.value)} />
      <div className="flex gap-2 text-xs">
        <button type="submit" disabled={busy || !draft.trim()} className="rounded bg-indigo-600 px-2 py-1 text-white disabled:opacity-50">Save</button>
        <button type="button" className="rounded bg-gray-100 px-2 py-1" onClick={() => setDraft(null)}>Cancel</button>
      </div>
    </form>
  );
}

/** Forget asks once more before forgetting for good. */
function Forget({ label, busy, onForget }: { label: string; busy: boolean; onForget: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return <button type="button" className="text-xs text-red-700 underline" aria-label={`Forget ${label}`} onClick={() => setAsking(true)}>Forget</button>;
  return (
    <span className="flex items-center gap-1 text-xs">
      Forget for good?
      <button type="button" disabled={busy} className="rounded bg-red-600 px-2 py-0.5 text-white" onClick={() => { setAsking(false); onForget(); }}>Yes, forget</button>
      <button type="button" className="rounded bg-gray-100 px-2 py-0.5" onClick={() => setAsking(false)}>Keep</button>
    </span>
  );
}

type Act = (id: string, notice: string, run: (api: MemoryApi) => Promise<unknown>) => void;

function EntryRow({ e, busy, act }: { e: LearnedEntry; busy: boolean; act: Act }) {
  const label = `learned ${e.type} “${e.content.slice(0, 40)}”`;
  return (
    <li data-entry={e.id} data-pinned={!!e.pinned} className={`space-y-1 p-3 text-sm ${e.pinned ? "bg-indigo-50/60" : ""}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="indigo">{e.type}</Badge>
        {e.pinned && <Badge tone="indigo">pinned</Badge>}
        <span className="text-xs text-gray-500">confidence {e.confidence.toFixed(2)} · {e.source} · {when(e.extractedAt)}</span>
        {e.proposal && <Badge tone={statusTone(e.proposal.status)}>seed: {e.proposal.status}</Badge>}
        <span className="ml-auto flex items-center gap-3">
          <button type="button" disabled={busy} className="text-xs text-indigo-700 underline" aria-label={`${e.pinned ? "Unpin" : "Pin"} ${label}`}
            onClick={() => act(e.id, e.pinned ? "Unpinned." : "Pinned: it goes into the context first.", (a) => a.pinEntry(e.id, !e.pinned))}>
            {e.pinned ? "Unpin" : "Pin"}
          </button>
          <Forget label={label} busy={busy} onForget={() => act(e.id, "Forgotten: it never comes back.", (a) => a.forgetEntry(e.id))} />
        </span>
      </div>
      <Editable label={label} text={e.content} busy={busy} onSave={(t) => act(e.id, "Saved.", (a) => a.editEntry(e.id, t))} />
      {(e.evidence || e.entities.length > 0) && (
        <p className="text-xs text-gray-500">
          {e.evidence && <>Evidence: {e.evidence}</>}
          {e.evidence && e.entities.length > 0 && " · "}
          {e.entities.length > 0 && <>Entities: {e.entities.join(", ")}</>}
        </p>
      )}
    </li>
  );
}

function ProposalRow({ p, entry, busy, act }: { p: SeedProposal; entry?: LearnedEntry; busy: boolean; act: Act }) {
  const label = `proposal “${p.content.slice(0, 40)}”`;
  return (
    <li data-proposal={p.id} data-status={p.status} className="space-y-1 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Badge>{p.type}</Badge>
        <Badge tone={statusTone(p.status)}>{p.status}</Badge>
        <span className="text-xs text-gray-500">
          proposed from {p.source} · {when(p.extractedAt)}{p.confidence != null && ` · confidence ${p.confidence.toFixed(2)}`}{p.decidedAt && ` · decided ${when(p.decidedAt)}`}
        </span>
        {p.status === "pending" && (
          <span className="ml-auto flex gap-2">
            <button type="button" disabled={busy} className="rounded bg-green-600 px-2 py-0.5 text-xs text-white disabled:opacity-50" aria-label={`Accept ${label}`}
              onClick={() => act(p.id, "Accepted: committed to the seed.", (a) => a.decide(p.id, true))}>Accept</button>
            <button type="button" disabled={busy} className="rounded bg-gray-200 px-2 py-0.5 text-xs disabled:opacity-50" aria-label={`Reject ${label}`}
              onClick={() => act(p.id, "Rejected: it will not be proposed again.", (a) => a.decide(p.id, false))}>Reject</button>
          </span>
        )}
      </div>
      <p className="whitespace-pre-wrap">{p.content}</p>
      {p.entryId && <p className="text-xs text-gray-500">From the learned {entry ? `${entry.type} “${entry.content}”` : "entry (no longer active)"}</p>}
    </li>
  );
}

function MemoryRow({ m, editable, busy, act }: { m: CoachMemory; editable: boolean; busy: boolean; act: Act }) {
  const label = `memory ${m.id}`;
  return (
    <li data-memory={m.id} className="space-y-1 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={m.metadata.importance === "high" ? "amber" : "gray"}>{m.metadata.importance}</Badge>
        {m.thisProject && <Badge tone="indigo">this project</Badge>}
        <span className="text-xs text-gray-500">session {m.metadata.session_id} · {when(m.metadata.created_at)}{m.metadata.tags && ` · ${m.metadata.tags}`}</span>
        {editable && <span className="ml-auto"><Forget label={label} busy={busy} onForget={() => act(m.id, "Memory forgotten.", (a) => a.forgetMemory(m.id))} /></span>}
      </div>
      {editable ? <Editable label={label} text={m.content} busy={busy} onSave={(t) => act(m.id, "Saved.", (a) => a.editMemory(m.id, t))} /> : <p>{m.content}</p>}
      <p className="truncate text-xs text-gray-400" title={m.metadata.project}>project {m.metadata.project || "(none)"}</p>
    </li>
  );
}

/** forgottenNote says how many forgotten entries are kept out of every context (none: no note). */
export function forgottenNote(n: number): string | undefined {
  if (n <= 0) return undefined;
  return n === 1 ? "1 forgotten entry is kept out of every context." : `${n} forgotten entries are kept out of every context.`;
}

/** MemoryView is the Memory page: everything Paige learned and remembers, searchable, with controls. */
export function MemoryView({ api = memoryApi, delay = SEARCH_DELAY }: { api?: MemoryApi; delay?: number }) {
  const [s, dispatch] = useReducer(reduceMemory, initialMemory);
  const query = useRef("");
  // unreachable: the server did not answer at all (a restart); the page
  // loads again by itself, sooner once the WebSocket is back.
  const [unreachable, setUnreachable] = useState(false);
  const conn = useApp((st) => st.conn.status);
  const failed = useCallback((e: Error) => {
    if (e instanceof ApiError) dispatch({ kind: "failed", error: e.message });
    else setUnreachable(true);
  }, []);
  const load = useCallback((q: string) => {
    query.current = q;
    dispatch({ kind: "query", query: q });
    api.view(q).then((view) => { setUnreachable(false); dispatch({ kind: "loaded", view }); }, failed);
  }, [api, failed]);
  useEffect(() => { load(""); }, [load]);
  useEffect(() => {
    if (!unreachable) return;
    const t = setTimeout(() => load(query.current), conn === "open" ? 500 : 3000);
    return () => clearTimeout(t);
  }, [unreachable, conn, load]);
  const [typed, setTyped] = useState("");
  useEffect(() => {
    if (typed === query.current) return;
    const t = setTimeout(() => load(typed), delay);
    return () => clearTimeout(t);
  }, [typed, delay, load]);
  const act: Act = (id, notice, run) => {
    dispatch({ kind: "busy", id });
    run(api).then(() => { dispatch({ kind: "done", notice }); load(query.current); }, (e: Error) => { failed(e); if (!(e instanceof ApiError)) dispatch({ kind: "failed", error: "Paige did not answer; try again once it is back." }); });
  };
  const v = s.view;
  const entries = new Map((v?.entries ?? []).map((e) => [e.id, e]));
  return (
    <div className="h-full overflow-auto bg-gray-50">
      <div className="mx-auto max-w-4xl space-y-4 p-4">
        <div>
          <h1 className="text-xl font-semibold">Memory</h1>
          <p className="text-sm text-gray-600">What Paige learned from your sessions, what it proposed for your seed, and what the coach remembers. Pinned entries always go into the context first.</p>
        </div>
        <input type="search" aria-label="Search memory" placeholder="Search everything Paige remembers…" value={typed} onChange={(e) => setTyped(e.target.value)}
          className="w-full rounded border border-gray-300 px-3 py-1.5 text-sm" />
        {unreachable && <p role="status" className="rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">Paige is not answering (restarting?); this page loads again by itself when it is back.</p>}
        {s.error && <p role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800">{s.error}</p>}
        {s.notice && <p role="status" className="text-sm text-green-800">{s.notice}</p>}
        {v?.seedWarnings?.map((w) => <p key={w} className="text-sm text-amber-800">{w}</p>)}
        {!v ? <p className="text-sm text-gray-500">{s.loading ? "Loading…" : ""}</p> : (
          <>
            <Section title="Proposals for your seed" count={v.proposals.length} note={<>learn → seed: {pendingCount(v)} waiting for you. Accepting one is a commit in ~/.pai; a rejected one is never proposed again.</>}>
              {!v.proposals.length ? <p className="text-sm text-gray-500">No proposals{v.query && " match"}.</p> : (
                <ul className="divide-y divide-gray-100">{v.proposals.map((p) => <ProposalRow key={p.id} p={p} entry={p.entryId ? entries.get(p.entryId) : undefined} busy={s.busy === p.id} act={act} />)}</ul>
              )}
              <More n={v.more?.proposals ?? 0} />
            </Section>
            <Section title="Learned" count={v.entries.length} note={forgottenNote(v.forgotten)}>
              {!v.entries.length ? <p className="text-sm text-gray-500">Nothing learned{v.query && " matches"}. Turn learning on with `paige claude install`.</p> : (
                <ul className="divide-y divide-gray-100">{v.entries.map((e) => <EntryRow key={e.id} e={e} busy={s.busy === e.id} act={act} />)}</ul>
              )}
              <More n={v.more?.entries ?? 0} />
            </Section>
            <Section title="Coach memories" count={v.memories.length} note={v.memoryStatus === "off" ? "No memory store is open." : v.memoryStatus === "read-only" ? "This memory backend (ChromaDB) cannot list or edit memories here; `paige memory search` finds them." : undefined}>
              {!v.memories.length ? <p className="text-sm text-gray-500">No memories{v.query && " match"}. The coach keeps some at the end of each session.</p> : (
                <ul className="divide-y divide-gray-100">{v.memories.map((m) => <MemoryRow key={m.id} m={m} editable={v.memoryStatus === "editable"} busy={s.busy === m.id} act={act} />)}</ul>
              )}
              <More n={v.more?.memories ?? 0} />
            </Section>
          </>
        )}
      </div>
    </div>
  );
}
