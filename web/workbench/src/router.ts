import { pushPath, usePathRoute } from "../../shared/location";

export type Route =
  | { page: "dashboard" }
  | { page: "work" }
  | { page: "practice"; kataId: string | null }
  | { page: "memory" }
  | { page: "status" }
  | { page: "not_found" };

/** matchRoute maps a pathname to a page: /, /work, /practice, /practice/<kataId>, /memory, /status. */
export function matchRoute(pathname: string): Route {
  const rest = pathname.replace(/\/+$/, "");
  if (rest === "") return { page: "dashboard" };
  if (rest === "/work") return { page: "work" };
  if (rest === "/memory") return { page: "memory" };
  if (rest === "/status") return { page: "status" };
  const m = /^\/practice(?:\/([^/]+))?$/.exec(rest);
  if (m) {
    try {
      return { page: "practice", kataId: m[1] ? decodeURIComponent(m[1]) : null };
    } catch {
      return { page: "not_found" };
    }
  }
  return { page: "not_found" };
}

/** navigate moves to path without reloading the page. */
export function navigate(path: string): void {
  if (window.location.pathname === path) return;
  pushPath(path);
}

/** useRoute returns the current route and follows history changes. */
export function useRoute(): Route {
  return usePathRoute(matchRoute);
}
