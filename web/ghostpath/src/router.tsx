import type { AnchorHTMLAttributes, MouseEvent } from "react";
import { pushPath, usePathRoute } from "../../shared/location";

/** BASE is where the app is served (Vite's base, "/ghostpath/"). */
export const BASE = import.meta.env.BASE_URL;

export type Route =
  | { page: "home" }
  | { page: "session"; id: string }
  | { page: "report"; id: string }
  | { page: "not_found" };

/** matchRoute maps a pathname under BASE to a page. */
export function matchRoute(pathname: string, base = BASE): Route {
  const root = base.replace(/\/$/, "");
  if (pathname !== root && !pathname.startsWith(base)) return { page: "not_found" };
  const rest = pathname.slice(base.length).replace(/\/+$/, "");
  if (rest === "") return { page: "home" };
  const m = /^sessions\/([^/]+)(\/report)?$/.exec(rest);
  if (!m) return { page: "not_found" };
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    return { page: "not_found" };
  }
  return m[2] ? { page: "report", id } : { page: "session", id };
}

/** href builds a URL under BASE. */
export function href(path: string): string {
  return BASE + path.replace(/^\//, "");
}

/** navigate moves to path (under BASE) without reloading. */
export function navigate(path: string): void {
  pushPath(href(path));
  window.scrollTo?.(0, 0);
}

/** useRoute returns the current route and follows history changes. */
export function useRoute(): Route {
  return usePathRoute(matchRoute);
}

/** Link is an anchor that navigates client-side on a plain left click. */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={href(to)} onClick={onClick} {...rest} />;
}
