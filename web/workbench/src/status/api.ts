import { useEffect, useSyncExternalStore } from "react";

// GET /api/v1/status (internal/cli/status.go): what the Status page, the
// first-run panel and the header's Claude Code indicator show. Not part of
// the WebSocket catalog: it describes the server, not the coaching session.

export interface ServerStatus {
  version: string;
  models: { keySet: boolean; offline: boolean; haiku: string; sonnet: string; opus: string };
  projectDir: string;
  dataDir: string;
  mcpUrl: string;
  connect: { install: string; mcpAdd: string; coach: string };
  claudeCode: { connected: boolean; sessions: number; everConnected: boolean };
  session: { id: string; issueNumber?: number; issueTitle?: string; startedAt: string; howToEnd: string } | null;
  memory: string;
  learning: string;
  docs: { title: string; url: string }[];
}

/** STATUS_POLL is how often the status is read again while a page is open, in ms. */
export const STATUS_POLL = 5000;

type Snapshot = { status: ServerStatus | null; error: string | null };

let snap: Snapshot = { status: null, error: null };
const listeners = new Set<() => void>();
let started = false;

function set(next: Snapshot) {
  snap = next;
  for (const l of listeners) l();
}

/** refreshStatus reads the status now; a failure keeps the last status and sets error (the next poll retries). */
export async function refreshStatus(): Promise<void> {
  try {
    const res = await fetch("/api/v1/status", { cache: "no-store" });
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    set({ status: (await res.json()) as ServerStatus, error: null });
  } catch (e) {
    set({ status: snap.status, error: e instanceof Error ? e.message : String(e) });
  }
}

function poll() {
  void refreshStatus().finally(() => setTimeout(poll, STATUS_POLL));
}

const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

/** useServerStatus returns the server's status, read on first use and every STATUS_POLL ms after (the page's one poll). */
export function useServerStatus(): Snapshot {
  useEffect(() => {
    if (started) return;
    started = true;
    poll();
  }, []);
  return useSyncExternalStore(subscribe, () => snap);
}
