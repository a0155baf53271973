import type { ReactNode } from "react";
import { Radar, stageLabel } from "../components/Radar";
import { FirstRun } from "../components/FirstRun";
import { OfflineNote } from "../components/OfflineNote";
import { plural } from "../lib/plural";
import type { Period } from "../protocol/types";
import { navigate } from "../router";
import { modelFeaturesOn } from "../state/app";
import { appStore, useApp } from "../state/store";

function Card({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-gray-200 bg-white p-4">
      <div className="mb-3 flex items-center justify-between">
        <h2 className="font-semibold">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

const PERIODS: { id: Period; label: string }[] = [
  { id: "7d", label: "7 days" },
  { id: "30d", label: "30 days" },
  { id: "all", label: "All time" },
];

/** unpricedNote says how many calls have no known price (their cost is
 * unknown, not $0); empty when every call is priced. */
export function unpricedNote(unpriced: number): string {
  if (!unpriced) return "";
  return `+ ${unpriced} ${unpriced === 1 ? "call" : "calls"} of unknown cost`;
}

function Stats() {
  const d = useApp((s) => s.dashboard);
  const st = d.state?.stats;
  const items: [string, string, string?][] = st
    ? [
        ["Sessions completed", String(st.sessionsCompleted)],
        ["Coaching minutes", String(Math.round(st.totalCoachingMinutes))],
        ["Issues worked on", String(st.issuesWorkedOn)],
        ["Gaps identified", String(st.knowledgeGapsIdentified)],
        ["Gaps addressed", String(st.knowledgeGapsAddressed)],
        ["Hints used", String(st.hintsUsed)],
        ["API cost", `$${st.apiCostTotal.toFixed(2)}`, unpricedNote(st.apiCostUnpricedCalls)],
      ]
    : [];
  const period = (
    <div role="radiogroup" aria-label="Stats period" className="flex gap-1 text-xs">
      {PERIODS.map((p) => (
        <button key={p.id} type="button" role="radio" aria-checked={d.period === p.id} onClick={() => appStore().requestDashboard(p.id)}
          className={`rounded px-2 py-1 ${d.period === p.id ? "bg-indigo-600 text-white" : "bg-gray-100 text-gray-700"}`}>
          {p.label}
        </button>
      ))}
    </div>
  );
  return (
    <Card title="Stats" action={period}>
      {!st ? <p className="text-sm text-gray-500">Loading…</p> : (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {items.map(([k, v, note]) => (
            <div key={k} className="rounded bg-gray-50 p-2">
              <dt className="text-xs text-gray-500">{k}</dt>
              <dd className="text-xl font-semibold" data-stat={k}>{v}</dd>
              {note && <dd className="text-xs text-amber-700">{note}</dd>}
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

function Skills() {
  const dreyfus = useApp((s) => s.dashboard.state?.dreyfus);
  return (
    <Card title="Skills (Dreyfus stages)">
      {!dreyfus ? <p className="text-sm text-gray-500">Loading…</p> : dreyfus.length === 0 ? (
        <p className="text-sm text-gray-500">No skill assessed yet. Finish a coaching session and Paige assesses the areas you worked on.</p>
      ) : (
        <div className="flex flex-wrap items-center gap-4">
          {dreyfus.length >= 3 && <Radar entries={dreyfus} />}
          <ul className="text-sm" aria-label="Skill stages">
            {dreyfus.map((e) => (
              <li key={e.skillArea}><strong>{e.skillArea}</strong>: {stageLabel(e.stage)}</li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

function Sessions() {
  const sessions = useApp((s) => s.dashboard.state?.inProgressSessions);
  const store = appStore();
  return (
    <Card title="Sessions" action={
      <button type="button" className="rounded bg-indigo-600 px-3 py-1 text-sm text-white" onClick={() => { store.startSession(); navigate("/work"); }}>
        Start a session
      </button>
    }>
      {!sessions?.length ? <p className="text-sm text-gray-500">No session in progress.</p> : (
        <ul className="divide-y divide-gray-100 text-sm">
          {sessions.map((s) => (
            <li key={s.id} className="flex items-center justify-between py-2">
              <span>{s.issueTitle ?? "Session"}{s.issueNumber != null && ` (#${s.issueNumber})`} · started {new Date(s.startedAt).toLocaleString()}</span>
              <button type="button" className="rounded border border-indigo-300 px-2 py-0.5 text-indigo-700" onClick={() => { store.resumeSession(s.id); navigate("/work"); }}>
                Resume
              </button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Issues() {
  const issues = useApp((s) => s.dashboard.issues);
  const store = appStore();
  return (
    <Card title="GitHub issues">
      {(issues.status === "loading" || issues.status === "idle") && <p className="text-sm text-gray-500">Loading issues…</p>}
      {issues.status === "error" && (
        <p role="status" className="text-sm text-gray-600">
          {issues.error}. Paige lists this project's open issues with the GitHub CLI (<code>gh</code>) when the project has a GitHub remote; nothing else needs it.{" "}
          <button type="button" className="ml-1 rounded border border-gray-300 px-2 py-0.5" onClick={store.refreshIssues}>Retry</button>
        </p>
      )}
      {issues.status === "ready" && (issues.data.length === 0 ? <p className="text-sm text-gray-500">No open issues.</p> : (
        <ul className="divide-y divide-gray-100 text-sm">
          {issues.data.map((i) => (
            <li key={i.number} className="py-2">
              <div className="flex items-center justify-between gap-2">
                <span><strong>#{i.number}</strong> {i.title} <span className="ml-1 rounded bg-gray-100 px-1.5 text-xs">{i.suitability}</span></span>
                <button type="button" className="shrink-0 rounded bg-indigo-600 px-2 py-0.5 text-white" onClick={() => { store.startSession({ number: i.number, title: i.title }); navigate("/work"); }}>
                  Coach me on this
                </button>
              </div>
              <p className="text-gray-600">{i.summary}</p>
            </li>
          ))}
        </ul>
      ))}
    </Card>
  );
}

function Katas() {
  const katas = useApp((s) => s.dashboard.state?.katas);
  return (
    <Card title="Katas to practise">
      {!katas?.length ? <p className="text-sm text-gray-500">No katas yet. Paige writes them from the gaps a session reveals.</p> : (
        <ul className="text-sm">
          {katas.map((k) => (
            <li key={k.id} className="flex justify-between py-1">
              <a href={`/practice/${encodeURIComponent(k.id)}`} onClick={(e) => { e.preventDefault(); navigate(`/practice/${encodeURIComponent(k.id)}`); }} className="text-indigo-700 underline">{k.title}</a>
              <span className="text-gray-500">{k.topic} · {plural(k.attemptsCount, "attempt")}{k.bestLevel != null && ` · best ${k.bestLevel}`}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Materials() {
  const m = useApp((s) => s.dashboard.materials);
  const model = useApp((s) => modelFeaturesOn(s.conn));
  // Materials are cached per set of gaps; Refresh asks for fresh research.
  const refresh = model && (m.status === "ready" || m.status === "error") && (
    <button type="button" className="rounded border border-indigo-300 px-2 py-0.5 text-sm text-indigo-700" onClick={() => appStore().refreshMaterials()}>
      Refresh
    </button>
  );
  return (
    <Card title="Learning materials" action={refresh || undefined}>
      {m.status === "idle" && <p className="text-sm text-gray-500">No open knowledge gaps, so nothing to study yet.</p>}
      {m.status === "loading" && <p className="text-sm text-gray-500">Finding materials…</p>}
      {m.status === "error" && <p role="alert" className="text-sm text-red-700">{m.error} <button type="button" className="ml-1 rounded border border-red-300 px-2 py-0.5" onClick={() => appStore().requestDashboard(appStore().state.dashboard.period)}>Retry</button></p>}
      {m.status === "ready" && m.data.length === 0 && <p className="text-sm text-gray-500">No materials found for your open gaps yet.</p>}
      {m.status === "ready" && (
        <ul className="space-y-2 text-sm">
          {m.data.map((r) => (
            <li key={r.knowledgeGap}>
              <strong>{r.knowledgeGap}</strong>
              <ul className="ml-4 list-disc">
                {r.resources.map((x) => (
                  <li key={x.url}><a href={x.url} target="_blank" rel="noreferrer noopener" className="text-indigo-700 underline">{x.title}</a> <span className="text-gray-500">({x.type}, {x.estimatedTime})</span></li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** Offline is the dashboard's one note, without a Claude key, on what needs it and the one thing to set. */
function Offline() {
  const model = useApp((s) => modelFeaturesOn(s.conn));
  return model ? null : <div className="lg:col-span-2"><OfflineNote many what="Ranking issues, learning materials, the wrap-up after a session, Explain This and reviews" /></div>;
}

/** DashboardView is the home page: getting started (until Claude Code connects), skills, stats, sessions, issues, katas and materials. */
export function DashboardView() {
  return (
    <div className="h-full overflow-auto">
    <div className="mx-auto grid max-w-6xl gap-4 p-4 lg:grid-cols-2">
      <FirstRun />
      <Offline />
      <Skills />
      <Stats />
      <Sessions />
      <Katas />
      <Issues />
      <Materials />
    </div>
    </div>
  );
}
