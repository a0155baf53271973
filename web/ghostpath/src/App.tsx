import { HomePage } from "./pages/HomePage";
import { ReportPage } from "./pages/ReportPage";
import { SessionPage } from "./pages/SessionPage";
import { Nav } from "../../shared/Nav";
import { Link, navigate, useRoute } from "./router";

/** App is the GhostPath shell: Paige's shared navigation, header and the page for the current route. */
export function App() {
  const route = useRoute();
  return (
    <>
      <Nav current="ghostpath" onNavigate={(href) => href === "/ghostpath/" && (navigate(""), true)} />
      <div className="mx-auto min-h-screen max-w-4xl px-3 py-4 sm:px-6 sm:py-8">
        <header className="mb-6 flex items-baseline justify-between gap-2 border-b border-gray-200 pb-3">
          <Link to="" className="text-2xl font-bold tracking-tight">
            GhostPath
          </Link>
          <span className="text-sm text-gray-500">idea evolution with guardrails</span>
        </header>
        <main>
          {route.page === "home" && <HomePage />}
          {route.page === "session" && <SessionPage key={route.id} id={route.id} />}
          {route.page === "report" && <ReportPage key={route.id} id={route.id} />}
          {route.page === "not_found" && (
            <p>
              Page not found. <Link to="" className="text-blue-700 underline">Go home</Link>
            </p>
          )}
        </main>
      </div>
    </>
  );
}
