import { Nav, type NavId } from "../../shared/Nav";
import { Toasts } from "./components/Toasts";
import { navigate, useRoute } from "./router";
import { appStore, useApp } from "./state/store";
import { DashboardView } from "./views/Dashboard";
import { MemoryView } from "./views/Memory";
import { PracticeView } from "./views/Practice";
import { WorkView } from "./views/Work";

const dismissToast = (id: number) => appStore().dispatch({ kind: "toast/dismiss", id });

const routable = (href: string) => href === "/" || href === "/work" || href === "/practice" || href === "/memory";

/** App is the workbench shell: navigation, connection status, the current view and toasts. */
export function App() {
  const route = useRoute();
  const status = useApp((s) => s.conn.status);
  const toasts = useApp((s) => s.toasts);
  const current: NavId = route.page === "work" || route.page === "practice" || route.page === "memory" ? route.page : "dashboard";
  return (
    <div className="flex h-full flex-col">
      <Nav current={current} onNavigate={(href) => (routable(href) ? (navigate(href), true) : false)}>
        <span role="status" aria-label="Connection" className={status === "open" ? "text-green-700" : "text-amber-700"}>
          {status === "open" ? "● connected" : status === "connecting" ? "○ connecting…" : "○ reconnecting…"}
        </span>
      </Nav>
      <main className="min-h-0 flex-1">
        {route.page === "dashboard" && <DashboardView />}
        {route.page === "work" && <WorkView />}
        {route.page === "practice" && <PracticeView kataId={route.kataId} />}
        {route.page === "memory" && <MemoryView />}
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
