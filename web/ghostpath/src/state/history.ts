// Local copy of a session's rounds and scores, for the report page when the
// server's session detail carries no rounds.

import type { Round } from "./session";

const key = (id: string) => `ghostpath:rounds:${id}`;

/** saveRounds stores rounds for id; storage failures (quota, private mode) are ignored. */
export function saveRounds(id: string, rounds: Round[]): void {
  try {
    window.localStorage.setItem(key(id), JSON.stringify(rounds));
  } catch {
    // best effort only
  }
}

/** loadRounds returns the stored rounds of id, or [] when none or unreadable. */
export function loadRounds(id: string): Round[] {
  try {
    const raw = window.localStorage.getItem(key(id));
    const v: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(v)
      ? v.filter(
          (r): r is Round =>
            r && typeof r.number === "number" && Array.isArray(r.premises) && typeof r.scores === "object",
        )
      : [];
  } catch {
    return [];
  }
}
