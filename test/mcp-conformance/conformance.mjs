// Paige MCP conformance: the official TypeScript MCP SDK client lists the
// tools and calls every one of them (success, tool-error and null cases)
// against a running `paige serve`. The SDK client validates each result:
// a protocol violation (for instance a tool that declares an output schema
// and returns no structured content: -32600) throws, and this script fails.
//
// Usage: node conformance.mjs <mcp-url>
// Expects: a fresh server (no session), PAIGE_OFFLINE=1 (the coaching
// tools answer "no model configured"), and src/auth.ts with an editor
// buffer in the project (the Go test sends buffer:update first).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.argv[2];
if (!url) {
  console.error("usage: node conformance.mjs <mcp-url>");
  process.exit(2);
}

// Each case: tool, arguments, and whether a tool error (isError) is expected.
// Order matters: the session is started half-way.
const cases = [
  ["paige_get_session_state", {}, "error"], // No active session
  ["paige_update_phase", { phase: 1, status: "active" }, "error"],
  ["paige_get_buffer", { path: "src/auth.ts" }, "ok"],
  ["paige_get_buffer", { path: "no-buffer.ts" }, "ok"], // null case
  ["paige_get_buffer", { path: "../../etc/passwd" }, "error"],
  ["paige_get_buffer", { path: 42 }, "error"], // fails the input schema
  ["paige_get_open_files", {}, "ok"],
  ["paige_get_diff", {}, "ok"],
  ["paige_get_diff", { path: "src/auth.ts" }, "ok"],
  ["paige_get_diff", { path: "../outside.ts" }, "error"],
  ["paige_open_file", { path: "README.md" }, "ok"],
  ["paige_open_file", { path: "missing.ts" }, "error"],
  ["paige_highlight_lines", { path: "src/auth.ts", start: 1, end: 2, style: "hint" }, "ok"],
  ["paige_highlight_lines", { path: "src/auth.ts", start: 3, end: 1, style: "hint" }, "error"],
  ["paige_clear_highlights", {}, "ok"],
  ["paige_clear_highlights", { path: "src/auth.ts" }, "ok"],
  ["paige_hint_files", { paths: ["src/auth.ts"], style: "suggested" }, "ok"],
  ["paige_hint_files", { hints: [{ path: "/etc/passwd", style: "suggested" }] }, "error"],
  ["paige_clear_hints", {}, "ok"],
  ["paige_show_message", { message: "Look at login()", type: "hint" }, "ok"],
  ["paige_show_message", { message: "" }, "error"],
  ["paige_show_issue_context", { title: "T", summary: "S", number: 1 }, "ok"],
  ["paige_show_issue_context", { title: "T" }, "error"],
  ["paige_start_session", { issueNumber: -1 }, "error"],
  ["paige_start_session", { issueTitle: "Conformance", goal: "call every tool" }, "ok"],
  ["paige_start_session", { issueTitle: "Conformance" }, "ok"],
  ["paige_get_session_state", {}, "ok"],
  ["paige_get_session_state", { include: ["session", "progress"] }, "ok"],
  ["paige_update_phase", { phase: 1, status: "active" }, "error"], // no plan
  ["paige_run_coaching_pipeline", { planText: "1. read", issueSummary: "s" }, "error"], // offline
  ["paige_search_knowledge", { query: "login flow" }, "ok"], // no session needed; nothing stored: no hits
  ["paige_search_knowledge", { query: "" }, "error"],
  ["paige_get_knowledge", { id: "no-such-id" }, "error"],
  ["paige_end_session", { sessionTranscript: "t" }, "ok"], // offline: ends the session, queues the wrap-up
  ["paige_no_such_tool", {}, "protocol"], // unknown tool: a JSON-RPC error is right
];

const failures = [];
const client = new Client({ name: "paige-conformance", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const { tools } = await client.listTools();
const listed = new Map(tools.map((t) => [t.name, t]));
const called = new Set();

for (const [name, args, want] of cases) {
  let got;
  let detail = "";
  try {
    const res = await client.callTool({ name, arguments: args });
    got = res.isError ? "error" : "ok";
    detail = JSON.stringify(res.content).slice(0, 200);
    const tool = listed.get(name);
    if (got === "ok" && tool?.outputSchema && (res.structuredContent === undefined || res.structuredContent === null)) {
      failures.push(`${name}: declares an output schema but returned no structuredContent`);
    }
  } catch (err) {
    got = "protocol";
    detail = String(err?.message ?? err);
  }
  called.add(name);
  if (got !== want) {
    failures.push(`${name} ${JSON.stringify(args)}: got ${got}, want ${want}: ${detail}`);
  }
}
for (const name of listed.keys()) {
  if (!called.has(name)) failures.push(`${name}: listed but not exercised by the conformance cases`);
}
await client.close();

console.log(JSON.stringify({ tools: listed.size, calls: cases.length, failures }, null, 2));
process.exit(failures.length ? 1 : 0);
