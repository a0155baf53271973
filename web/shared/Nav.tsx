import type { MouseEvent, ReactNode } from "react";

/**
 * NAV_LINKS are the product's top-level pages. The workbench routes the
 * first four client-side; GhostPath is its own app at /ghostpath/.
 */
export const NAV_LINKS = [
  { id: "dashboard", label: "Dashboard", href: "/" },
  { id: "work", label: "Work", href: "/work" },
  { id: "practice", label: "Practice", href: "/practice" },
  { id: "memory", label: "Memory", href: "/memory" },
  { id: "ghostpath", label: "GhostPath", href: "/ghostpath/" },
] as const;

export type NavId = (typeof NAV_LINKS)[number]["id"];

/**
 * Nav is the Paige navigation bar (on a narrow screen it scrolls sideways
 * rather than widen the page) that the workbench and GhostPath both import
 * from web/shared (Tailwind only, no app imports). onNavigate, when given,
 * handles plain left clicks on links it can route itself (it returns false
 * to let the browser load the page).
 */
export function Nav({ current, onNavigate, children }: { current: NavId | null; onNavigate?: (href: string) => boolean; children?: ReactNode }) {
  const click = (href: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (!onNavigate || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (onNavigate(href)) e.preventDefault();
  };
  return (
    <nav aria-label="Paige" className="flex h-11 shrink-0 items-center gap-1 overflow-x-auto whitespace-nowrap border-b border-gray-200 bg-white px-3">
      <a href="/" onClick={click("/")} className="mr-3 text-lg font-bold tracking-tight text-indigo-700">
        Paige
      </a>
      {NAV_LINKS.map((l) => (
        <a
          key={l.id}
          href={l.href}
          onClick={click(l.href)}
          aria-current={current === l.id ? "page" : undefined}
          className={`rounded px-2.5 py-1 text-sm ${current === l.id ? "bg-indigo-50 font-semibold text-indigo-800" : "text-gray-600 hover:bg-gray-100"}`}
        >
          {l.label}
        </a>
      ))}
      <div className="ml-auto flex items-center gap-3 text-sm">{children}</div>
    </nav>
  );
}
