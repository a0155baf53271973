import { useEffect, useState } from "react";

/**
 * usePathRoute returns match(window.location.pathname) and follows history
 * changes: the browser's back and forward buttons and [pushPath].
 */
export function usePathRoute<R>(match: (pathname: string) => R): R {
  const [route, setRoute] = useState(() => match(window.location.pathname));
  useEffect(() => {
    const on = () => setRoute(match(window.location.pathname));
    window.addEventListener("popstate", on);
    return () => window.removeEventListener("popstate", on);
  }, [match]);
  return route;
}

/** pushPath moves the browser to url without reloading the page and tells usePathRoute. */
export function pushPath(url: string): void {
  window.history.pushState(null, "", url);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
