import type { MemoryView } from "../memory/api";

/** MemoryState is the Memory page: the last view, the query it answers, and what is in flight or failed. */
export interface MemoryState {
  query: string;
  view: MemoryView | null;
  loading: boolean;
  /** busy is the id of the item a change is running on, if any. */
  busy: string | null;
  error: string | null;
  /** notice says what the last change did. */
  notice: string | null;
}

export const initialMemory: MemoryState = { query: "", view: null, loading: false, busy: null, error: null, notice: null };

export type MemoryAction =
  | { kind: "query"; query: string }
  | { kind: "loaded"; view: MemoryView }
  | { kind: "busy"; id: string }
  | { kind: "done"; notice: string }
  | { kind: "failed"; error: string };

/**
 * reduceMemory is the page's pure state machine. A view answering an older
 * query than the current one is dropped (searches can overtake each other).
 */
export function reduceMemory(s: MemoryState, a: MemoryAction): MemoryState {
  switch (a.kind) {
    case "query":
      return { ...s, query: a.query, loading: true, error: null };
    case "loaded":
      if (a.view.query !== s.query.trim()) return s;
      return { ...s, view: a.view, loading: false };
    case "busy":
      return { ...s, busy: a.id, error: null, notice: null };
    case "done":
      return { ...s, busy: null, notice: a.notice };
    case "failed":
      return { ...s, busy: null, loading: false, error: a.error };
  }
}

/** pendingCount is the number of proposals waiting for a decision. */
export function pendingCount(v: MemoryView | null): number {
  return v?.proposals.filter((p) => p.status === "pending").length ?? 0;
}
