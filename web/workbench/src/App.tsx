import { Nav, type NavId } from "../../shared/Nav";
import { Toasts } from "./components/Toasts";
import { navigate, useRoute } from "./router";
import { useServerStatus } from "./status/api";
import { appStore, useApp } from "./state/store";
import { DashboardView } from "./views/Dashboard";
import { MemoryView } from "./views/Memory";
import { PracticeView } from "./views/Practice";
import { StatusView } from "./views/Status";
import { WorkView } from "./views/Work";

const dismissToast = (id: number) => appStore().dispatch({ kind: "toast/dismiss", id });

const routable = (href: string) => href === "/" || href === "/work" || href === "/practice" || href === "/memory" || href === "/status";

/** ClaudeCodeState is the header's link to /status saying whether Claude Code is connected over MCP. */
function ClaudeCodeState() {
  const { status } = useServerStatus();
  const cc = status?.claudeCode;
  const text = !cc ? "Claude Code: …" : cc.connected ? "Claude Code: connected" : cc.everConnected ? "Claude Code: not connected" : "Claude Code: not set up";
  return (
    <a href="/status" aria-label="Claude Code connection" data-connected={cc?.connected ? "true" : "false"}
      onClick={(e) => { if (e.button === 0 && !e.metaKey && !e.ctrlKey) { e.preventDefault(); navigate("/status"); } }}
      className={`hidden sm:inline ${cc?.connected ? "text-green-700" : "text-gray-500"} hover:underline`}>
      {text}
    </a>
  );
}

/** App is the workbench shell: navigation, connection states, the current view and toasts. */
export function App() {
  const route = useRoute();
  const status = useApp((s) => s.conn.status);
  const toasts = useApp((s) => s.toasts);
  const current: NavId | null = route.page === "work" || route.page === "practice" || route.page === "memory" ? route.page : route.page === "status" ? null : "dashboard";
  return (
    <div className="flex h-full flex-col">
      <Nav current={current} onNavigate={(href) => (routable(href) ? (navigate(href), true) : false)}>
        <ClaudeCodeState />
        <a href="/status" onClick={(e) => { if (e.button === 0 && !e.metaKey && !e.ctrlKey) { e.preventDefault(); navigate("/status"); } }}
          aria-current={route.page === "status" ? "page" : undefined}
          className={`rounded px-2 py-1 ${route.page === "status" ? "bg-indigo-50 font-semibold text-indigo-800" : "text-gray-600 hover:bg-gray-100"}`}>Status</a>
        <span role="status" aria-label="Connection" className={status === "open" ? "text-green-700" : "text-amber-700"}>
          {status === "open" ? "● connected" : status === "connecting" ? "○ connecting…" : "○ reconnecting…"}
        </span>
      </Nav>
      <main className="min-h-0 flex-1">
        {route.page === "dashboard" && <DashboardView />}
        {route.page === "work" && <WorkView />}
        {route.page === "practice" && <PracticeView kataId={route.kataId} />}
        {route.page === "memory" && <MemoryView />}
        {route.page === "status" && <StatusView />}
        {route.page === "not_found" && (
          <p className="p-6">
            Page not found. <a href="/" className="text-indigo-700 underline">Go to the dashboard</a>
          </p>
        )}
      </main>
      <Toasts toasts={toasts} onDismiss={dismissToast} />
    </div>
  );
}
