import { useSyncExternalStore } from "react";
import { createCoalescer, type Coalescer } from "../lib/coalesce";
import type { ClientMessageType, ClientPayloads } from "../protocol/catalog.gen";
import { Client, type ClientOptions, wsURL } from "../protocol/client";
import type { Envelope, Period } from "../protocol/types";
import { refreshStatus } from "../status/api";
import { type AppAction, type AppState, initialApp, reduceApp } from "./app";
import { isDirty } from "./workspace";

/** BUFFER_WINDOW is the buffer:update debounce window in ms. */
export const BUFFER_WINDOW = 300;

interface BufferState {
  content: string;
  line: number;
  column: number;
}

/**
 * Store owns the app state, the WebSocket client and the side effects of
 * messages (what to ask the server after connecting or reconnecting). Views
 * read it with useApp and call its methods; every method sends protocol
 * messages only.
 */
export class Store {
  state: AppState = initialApp;
  private listeners = new Set<() => void>();
  readonly client: Client;
  readonly buffers: Coalescer<BufferState>;
  /** created is the file this page asked to create last: it opens when fs:created confirms it. */
  private created: string | null = null;

  constructor(opts: Partial<ClientOptions> = {}, window = BUFFER_WINDOW) {
    this.buffers = createCoalescer<BufferState>(window, (path, b) =>
      this.send("buffer:update", { path, content: b.content, cursorPosition: { line: b.line, column: b.column } }),
    );
    this.client = new Client({
      url: opts.url ?? wsURL(),
      onMessage: (env) => this.onMessage(env),
      onStatus: (status) => this.dispatch({ kind: "conn/status", status }),
      onOpen: (send) => this.onOpen(send),
      ...opts,
    });
  }

  /** send sends a client message of the Go catalog (catalog.gen.ts), type-checked against it. */
  private send<T extends ClientMessageType>(type: T, payload: ClientPayloads[T]): string {
    return this.client.send(type, payload);
  }

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  dispatch(a: AppAction): void {
    const next = reduceApp(this.state, a);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  }

  private onOpen(send: (type: string, payload?: unknown) => void): void {
    send("connection:hello", {
      version: "workbench-1",
      platform: navigator.platform || "browser",
      windowSize: { width: window.innerWidth, height: window.innerHeight },
    });
    this.dispatch({ kind: "dashboard/requested", period: this.state.dashboard.period });
    send("dashboard:request", { statsPeriod: this.state.dashboard.period });
    if (this.state.practice.kataId) send("practice:open", { kataId: this.state.practice.kataId });
  }

  private onMessage(env: Envelope): void {
    const before = this.state;
    this.dispatch({ kind: "server", env });
    const p = env.payload as Record<string, unknown>;
    switch (env.type) {
      case "connection:init":
        // The project is open with or without a coaching session.
        if (p.sessionId) this.send("session:get_state", {});
        this.send("fs:get_tree", {});
        void refreshStatus();
        // Edits made while disconnected reach the new connection.
        for (const t of this.state.workspace.tabs) if (isDirty(t)) this.buffers.push(t.path, { content: t.content, line: 1, column: 1 });
        break;
      case "session:state":
      case "session:resumed": {
        const r = (p.restoredState ?? null) as { openFiles?: string[] } | null;
        if (r && before.workspace.tabs.length === 0) for (const f of r.openFiles ?? []) this.send("file:open", { path: f });
        break;
      }
      case "practice:solution_review":
      case "review:response":
        // The attempt history and the dashboard's kata summary changed.
        if (p.kataId && p.kataId === this.state.practice.kataId) this.openKataMessage(String(p.kataId));
        this.send("dashboard:request", { statsPeriod: this.state.dashboard.period });
        break;
      case "session:started":
      case "session:ended":
      case "session:completed":
        this.send("dashboard:request", { statsPeriod: this.state.dashboard.period });
        void refreshStatus();
        break;
      case "fs:created":
        if (p.type === "file" && p.path === this.created) {
          this.created = null;
          this.openFile(String(p.path));
        }
        break;
      case "connection:error":
        if (this.state.workspace.search.status === "loading" && p.code === "FILE_ERROR" && !(p.context as { path?: string } | undefined)?.path)
          this.dispatch({ kind: "tab/search_failed", error: String(p.message) });
        break;
    }
  }

  /** openKataMessage asks for a kata (practice:open → practice:kata_load). */
  private openKataMessage(kataId: string): void {
    this.send("practice:open", { kataId });
  }

  start = () => this.client.start();
  requestDashboard = (period: Period) => {
    this.dispatch({ kind: "dashboard/requested", period });
    this.send("dashboard:request", { statsPeriod: period });
  };
  refreshIssues = () => {
    this.dispatch({ kind: "dashboard/issues_requested" });
    this.send("dashboard:refresh_issues", {});
  };
  /** refreshMaterials researches learning materials again, past the server's cache. */
  refreshMaterials = () => {
    this.dispatch({ kind: "dashboard/materials_requested" });
    this.send("dashboard:refresh_materials", {});
  };
  startSession = (issue?: { number: number; title: string }) => {
    this.dispatch({ kind: "session/starting" });
    this.send("session:start", issue ? { issueNumber: issue.number, issueTitle: issue.title } : {});
  };
  resumeSession = (sessionId: string) => {
    this.dispatch({ kind: "session/starting" });
    this.send("session:resume", { sessionId });
  };
  endSession = () => this.send("session:end", {});
  openFile = (path: string) => {
    if (this.state.workspace.tabs.some((t) => t.path === path)) this.activate(path);
    else this.send("file:open", { path });
  };
  activate = (path: string) => {
    const from = this.state.workspace.active;
    this.dispatch({ kind: "tab/activate", path });
    if (from !== path) this.send("editor:tab_switch", { fromPath: from ?? "", toPath: path });
  };
  closeTab = (path: string) => {
    this.buffers.flush(path);
    this.dispatch({ kind: "tab/close", path });
    this.send("file:close", { path });
  };
  edit = (path: string, content: string, line = 1, column = 1) => {
    this.dispatch({ kind: "tab/edit", path, content });
    this.buffers.push(path, { content, line, column });
  };
  save = (path: string) => {
    const tab = this.state.workspace.tabs.find((t) => t.path === path);
    if (!tab) return;
    this.buffers.flush(path);
    this.dispatch({ kind: "tab/saving", path, content: tab.content });
    this.send("file:save", { path, content: tab.content });
  };
  reveal = (path: string, line: number) => {
    this.openFile(path);
    this.dispatch({ kind: "tab/reveal", path, line });
  };
  selection = (path: string, range: { startLine: number; startColumn: number; endLine: number; endColumn: number }, textLength: number) =>
    this.send("editor:selection", { path, range, textLength });
  setHintLevel = (level: string) => {
    const previousLevel = this.state.session.hintLevel;
    this.dispatch({ kind: "hints/level", level });
    this.send("hints:level_change", { level, previousLevel });
  };
  /** createEntry creates an empty file (or a directory) in the project (fs:create). */
  createEntry = (path: string, dir: boolean) => {
    if (!dir) this.created = path;
    this.send("fs:create", { path, type: dir ? "directory" : "file" });
  };
  renameEntry = (from: string, to: string) => {
    this.buffers.flush(from);
    this.send("fs:rename", { from, to });
  };
  deleteEntry = (path: string) => this.send("fs:delete", { path });
  search = (query: string) => {
    this.dispatch({ kind: "tab/search", query });
    this.send("fs:search", { query });
  };
  mute = (muted: boolean) => this.send("observer:mute", { muted });
  explain = (req: { path: string; language: string; selectedText: string; selection: { startLine: number; startCol: number; endLine: number; endCol: number }; surroundingContext: string }) => {
    this.dispatch({ kind: "explain/requested", path: req.path, selectedText: req.selectedText });
    this.send("user:explain", req);
  };
  openKata = (kataId: string) => {
    this.dispatch({ kind: "practice/open", kataId });
    this.openKataMessage(kataId);
  };
  submitKata = (kataId: string, code: string, activeConstraints: string[]) => {
    this.dispatch({ kind: "practice/submit" });
    this.send("practice:submit_solution", { kataId, code, activeConstraints });
  };
}

let store: Store | null = null;

/** appStore is the page's one Store (created on first use). */
export function appStore(): Store {
  store ??= new Store();
  return store;
}

/** useApp returns the selected part of the state and re-renders when it changes. */
export function useApp<T>(select: (s: AppState) => T): T {
  const s = appStore();
  return useSyncExternalStore(s.subscribe, () => select(s.state));
}
