import type { ReactNode } from "react";
import { CopyLine } from "../components/CopyLine";
import { useServerStatus } from "../status/api";
import { useApp } from "../state/store";

function Row({ k, children }: { k: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-gray-500">{k}</dt>
      <dd className="min-w-0 break-words" data-status-row={k}>{children}</dd>
    </div>
  );
}

/** StatusView is the Status page: the server's version, models, project, data directory, MCP URL, session and backends (GET /api/v1/status). */
export function StatusView() {
  const { status: s, error } = useServerStatus();
  const conn = useApp((st) => st.conn.status);
  return (
    <div className="h-full overflow-auto">
      <div className="mx-auto max-w-3xl space-y-4 p-4">
        <h1 className="text-xl font-semibold">Status</h1>
        {error && <p role="status" className="rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">Paige is not answering ({error}); this page updates by itself when it is back.</p>}
        {!s ? <p className="text-sm text-gray-500">Loading…</p> : (
          <>
            <section aria-label="Server" className="rounded-lg border border-gray-200 bg-white p-4">
              <dl className="divide-y divide-gray-100">
                <Row k="Version">{s.version}</Row>
                <Row k="Project">{s.projectDir}</Row>
                <Row k="Data directory">{s.dataDir}</Row>
                <Row k="Claude key">{s.models.keySet ? "set" : <>not set: model features are off. Set <code>ANTHROPIC_API_KEY</code> and restart <code>paige serve</code>.</>}</Row>
                <Row k="Models">haiku {s.models.haiku} · sonnet {s.models.sonnet} · opus {s.models.opus}</Row>
                <Row k="MCP URL"><code>{s.mcpUrl}</code></Row>
                <Row k="Claude Code">{s.claudeCode.connected ? `connected (${s.claudeCode.sessions} MCP ${s.claudeCode.sessions === 1 ? "session" : "sessions"})` : s.claudeCode.everConnected ? "not connected now" : "never connected"}</Row>
                <Row k="Browser link">{conn === "open" ? "connected" : "reconnecting…"}</Row>
                <Row k="Coaching session">
                  {s.session ? (
                    <span>{s.session.issueTitle ? `${s.session.issueNumber != null ? `#${s.session.issueNumber} ` : ""}${s.session.issueTitle}` : "active"} since {new Date(s.session.startedAt).toLocaleString()}. {s.session.howToEnd}</span>
                  ) : "none (the project is open without one; start coaching with /paige:coach in Claude Code)"}
                </Row>
                <Row k="Memory">{s.memory}</Row>
                <Row k="Learning">{s.learning}</Row>
              </dl>
            </section>
            <section aria-label="Connect Claude Code" className="space-y-2 rounded-lg border border-gray-200 bg-white p-4">
              <h2 className="font-semibold">Connect Claude Code</h2>
              <CopyLine label="install command" text={s.connect.install} />
              <p className="text-xs text-gray-500">or, without the plugin:</p>
              <CopyLine label="claude mcp add command" text={s.connect.mcpAdd} />
            </section>
            <section aria-label="Documentation" className="rounded-lg border border-gray-200 bg-white p-4">
              <h2 className="mb-1 font-semibold">Documentation</h2>
              <ul className="list-disc pl-5 text-sm">
                {s.docs.map((d) => <li key={d.url}><a href={d.url} target="_blank" rel="noreferrer noopener" className="text-indigo-700 underline">{d.title}</a></li>)}
              </ul>
            </section>
          </>
        )}
      </div>
    </div>
  );
}
