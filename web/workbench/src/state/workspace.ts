import type { EditorRange, Envelope, FileContent, FileHint, FSSearchResult, Highlight, HoverHint, TreeNode, TreeUpdate } from "../protocol/types";
import { applyTreeUpdate } from "./tree";

/** Tab is one open file: what the editor shows and what disk last had. */
export interface Tab {
  path: string;
  language: string;
  content: string;
  saved: string;
  binary: boolean;
  /** saving is the content sent with file:save until its ack or error arrives. */
  saving: string | null;
  saveError: string | null;
  savedAt: number | null;
}

export interface WorkspaceSlice {
  tree: TreeNode | null;
  tabs: Tab[];
  active: string | null;
  highlights: Record<string, Highlight[]>;
  hints: Record<string, FileHint>;
  /** decorations are editor:decorations, read as highlights (see decorationToHighlight). */
  decorations: Record<string, Highlight[]>;
  hovers: Record<string, HoverHint[]>;
  /** reveal is a line the editor should scroll to (a clicked anchor). */
  reveal: { path: string; line: number; seq: number } | null;
  /** search is the last search in files (fs:search → fs:search_result). */
  search: { query: string; status: "idle" | "loading" | "ready" | "error"; result: FSSearchResult | null; error: string | null };
}

export const initialWorkspace: WorkspaceSlice = {
  tree: null,
  tabs: [],
  active: null,
  highlights: {},
  hints: {},
  decorations: {},
  hovers: {},
  reveal: null,
  search: { query: "", status: "idle", result: null, error: null },
};

export type WorkspaceAction =
  | { kind: "tab/edit"; path: string; content: string }
  | { kind: "tab/activate"; path: string }
  | { kind: "tab/close"; path: string }
  | { kind: "tab/saving"; path: string; content: string }
  | { kind: "tab/reveal"; path: string; line: number }
  | { kind: "tab/search"; query: string }
  | { kind: "tab/search_failed"; error: string };

/** isDirty reports whether a tab has edits that are not on disk. */
export const isDirty = (t: Tab) => t.content !== t.saved;

function withTab(s: WorkspaceSlice, path: string, f: (t: Tab) => Tab): WorkspaceSlice {
  return { ...s, tabs: s.tabs.map((t) => (t.path === path ? f(t) : t)) };
}

function openFile(s: WorkspaceSlice, f: FileContent): WorkspaceSlice {
  const existing = s.tabs.find((t) => t.path === f.path);
  const content = f.binary ? "" : f.content;
  if (existing) {
    // Keep unsaved edits; refresh what disk has.
    const keep = isDirty(existing);
    return {
      ...withTab(s, f.path, (t) => ({ ...t, saved: content, content: keep ? t.content : content, language: f.language })),
      active: f.path,
    };
  }
  const tab: Tab = { path: f.path, language: f.language, content, saved: content, binary: !!f.binary, saving: null, saveError: null, savedAt: null };
  return { ...s, tabs: [...s.tabs, tab], active: f.path };
}

function local(s: WorkspaceSlice, a: WorkspaceAction): WorkspaceSlice {
  switch (a.kind) {
    case "tab/edit":
      return withTab(s, a.path, (t) => ({ ...t, content: a.content, saveError: null }));
    case "tab/activate":
      return { ...s, active: a.path };
    case "tab/close": {
      const tabs = s.tabs.filter((t) => t.path !== a.path);
      const active = s.active === a.path ? (tabs[tabs.length - 1]?.path ?? null) : s.active;
      return { ...s, tabs, active };
    }
    case "tab/saving":
      return withTab(s, a.path, (t) => ({ ...t, saving: a.content, saveError: null }));
    case "tab/reveal":
      return { ...s, active: a.path, reveal: { path: a.path, line: a.line, seq: (s.reveal?.seq ?? 0) + 1 } };
    case "tab/search":
      return { ...s, search: { query: a.query, status: "loading", result: null, error: null } };
    case "tab/search_failed":
      return s.search.status === "loading" ? { ...s, search: { ...s.search, status: "error", error: a.error } } : s;
  }
}

/** under reports whether path is dir or inside it. */
const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

/** moved follows fs:renamed: tabs on or below `from` move to `to`, keeping their edits. */
function moved(s: WorkspaceSlice, from: string, to: string): WorkspaceSlice {
  const map = (p: string) => (under(p, from) ? to + p.slice(from.length) : p);
  return { ...s, tabs: s.tabs.map((t) => (under(t.path, from) ? { ...t, path: map(t.path) } : t)), active: s.active && map(s.active) };
}

/** removed follows fs:deleted: tabs on or below path close. */
function removed(s: WorkspaceSlice, path: string): WorkspaceSlice {
  const tabs = s.tabs.filter((t) => !under(t.path, path));
  const active = s.active && under(s.active, path) ? (tabs[tabs.length - 1]?.path ?? null) : s.active;
  return { ...s, tabs, active };
}

/**
 * reduceWorkspace applies the file-system and editor messages: the tree and
 * its live updates, opened files as tabs, save acks and errors, Claude's
 * highlights, explorer hints, decorations and hover hints.
 */
export function reduceWorkspace(s: WorkspaceSlice, a: Envelope | WorkspaceAction): WorkspaceSlice {
  if ("kind" in a) return local(s, a);
  const p = a.payload as Record<string, unknown>;
  switch (a.type) {
    case "fs:tree":
      return { ...s, tree: (p.root as TreeNode) ?? null };
    case "fs:renamed":
      return moved(s, String(p.from), String(p.to));
    case "fs:deleted":
      return removed(s, String(p.path));
    case "fs:search_result": {
      const r = a.payload as FSSearchResult;
      return r.query === s.search.query ? { ...s, search: { ...s.search, status: "ready", result: r } } : s;
    }
    case "fs:tree_update":
      return s.tree ? { ...s, tree: applyTreeUpdate(s.tree, a.payload as TreeUpdate) } : s;
    case "fs:content":
    case "editor:open_file":
      return openFile(s, a.payload as FileContent);
    case "fs:save_ack": {
      const path = String(p.path);
      return withTab(s, path, (t) => ({ ...t, saved: t.saving ?? t.saved, saving: null, saveError: null, savedAt: Number(p.timestamp) || Date.now() }));
    }
    case "fs:save_error":
      return withTab(s, String(p.path), (t) => ({ ...t, saving: null, saveError: String(p.error ?? "save failed") }));
    case "editor:highlight_lines": {
      const h = a.payload as Highlight;
      return { ...s, highlights: { ...s.highlights, [h.path]: [...(s.highlights[h.path] ?? []), h] } };
    }
    case "editor:clear_highlights":
      return { ...s, highlights: p.path ? { ...s.highlights, [String(p.path)]: [] } : {} };
    case "explorer:hint_files": {
      const hints = { ...s.hints };
      for (const h of (p.hints as FileHint[]) ?? []) hints[h.path] = h;
      return { ...s, hints };
    }
    case "explorer:clear_hints":
      return { ...s, hints: {} };
    case "editor:decorations": {
      const path = String(p.path);
      const list = ((p.decorations as unknown[]) ?? []).map((d) => decorationToHighlight(path, d)).filter((h): h is Highlight => h !== null);
      return { ...s, decorations: { ...s.decorations, [path]: list } };
    }
    case "editor:clear_decorations":
      return { ...s, decorations: p.path ? { ...s.decorations, [String(p.path)]: [] } : {} };
    case "editor:hover_hint": {
      const h = { path: String(p.path), range: p.range as EditorRange, hintText: String(p.hintText ?? "") };
      return { ...s, hovers: { ...s.hovers, [h.path]: [...(s.hovers[h.path] ?? []), h] } };
    }
  }
  return s;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 1 ? Math.floor(v) : null);

/**
 * decorationToHighlight reads one editor:decorations entry as a line
 * highlight. The spec leaves the entry's shape open, so the forms Paige and
 * editors use are accepted: {start, end, style?, hoverText?} (a highlight),
 * {line}, or {range: {startLine, endLine}} with type/style/className and
 * hoverMessage/message. Anything without a line is ignored (null).
 */
export function decorationToHighlight(path: string, d: unknown): Highlight | null {
  if (!d || typeof d !== "object") return null;
  const o = d as Record<string, unknown>;
  const r = (o.range && typeof o.range === "object" ? o.range : {}) as Record<string, unknown>;
  const start = num(o.start) ?? num(o.line) ?? num(r.startLine);
  if (start === null) return null;
  const end = Math.max(start, num(o.end) ?? num(r.endLine) ?? start);
  const style = [o.style, o.type, o.className].find((v) => typeof v === "string") as string | undefined;
  const hover = [o.hoverText, o.hoverMessage, o.message].find((v) => typeof v === "string") as string | undefined;
  return { path, start, end, style: style ?? "hint", ...(hover ? { hoverText: hover } : {}) };
}
