import { useServerStatus } from "../status/api";
import { CopyLine } from "./CopyLine";

const PAGES: [string, string][] = [
  ["Dashboard", "your skills, stats, sessions, issues and katas"],
  ["Work", "the project: files, editor, terminal, search; the coaching panel while a session runs"],
  ["Practice", "katas written from the gaps a session reveals, reviewed by Claude"],
  ["Memory", "what Paige learned and remembers, with pin, edit and forget"],
  ["Status", "version, models, project, MCP URL, the active session"],
];

/** FirstRun is the dashboard's welcome until Claude Code has connected once: how to connect it, how to start coaching, what each page is for. */
export function FirstRun() {
  const { status } = useServerStatus();
  if (!status || status.claudeCode.everConnected) return null;
  return (
    <section aria-label="Getting started" className="rounded-lg border border-indigo-200 bg-indigo-50 p-4 lg:col-span-2">
      <h2 className="mb-2 font-semibold">Getting started</h2>
      <ol className="list-decimal space-y-3 pl-5 text-sm">
        <li>
          <p className="mb-1">Connect Claude Code to this server (once per machine):</p>
          <CopyLine label="install command" text={status.connect.install} />
          <p className="my-1 text-xs text-gray-600">or, without the plugin (MCP URL <code>{status.mcpUrl}</code>):</p>
          <CopyLine label="claude mcp add command" text={status.connect.mcpAdd} />
        </li>
        <li>
          <p className="mb-1">In Claude Code, in this project, start coaching on an issue:</p>
          <CopyLine label="coach command" text={status.connect.coach} />
          <p className="mt-1 text-xs text-gray-600">Claude Code stays read-only while the session runs; <code>/paige:finish</code> ends it.</p>
        </li>
      </ol>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[7rem_1fr]">
        {PAGES.map(([k, v]) => <div key={k} className="contents"><dt className="font-medium">{k}</dt><dd className="text-gray-700">{v}</dd></div>)}
      </dl>
      <p className="mt-2 text-xs text-gray-500">This panel goes away once Claude Code has connected.</p>
    </section>
  );
}
