import { describe, expect, it, vi } from "vitest";
import type { SocketLike } from "../protocol/client";
import { Store } from "./store";

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: { type: string; payload: Record<string, unknown> }[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  send(d: string) { this.sent.push(JSON.parse(d)); }
  close() { this.readyState = 3; this.onclose?.({}); }
  open() { this.readyState = 1; this.onopen?.({}); }
  recv(type: string, payload: unknown) { this.onmessage?.({ data: JSON.stringify({ type, payload }) }); }
  types() { return this.sent.map((m) => m.type); }
}

function setup() {
  const socks: FakeSocket[] = [];
  const timers: (() => void)[] = [];
  const store = new Store({
    url: "ws://x/ws",
    connect: () => { const s = new FakeSocket(); socks.push(s); return s; },
    setTimeout: (fn) => { timers.push(fn); return 0; },
    delay: () => 10,
  }, 50);
  store.start();
  return { store, socks, timers };
}

describe("Store", () => {
  it("says hello and asks for the dashboard on connect", () => {
    const { socks } = setup();
    socks[0]!.open();
    expect(socks[0]!.types()).toEqual(["connection:hello", "dashboard:request"]);
  });

  it("opens the project without a session: the tree on connect; a file this page created opens", () => {
    const { store, socks } = setup();
    const s0 = socks[0]!;
    s0.open();
    s0.recv("connection:init", { sessionId: "", featureFlags: {} });
    expect(s0.types()).toEqual(["connection:hello", "dashboard:request", "fs:get_tree"]);
    store.createEntry("src/new.ts", false);
    s0.recv("fs:created", { path: "src/other.ts", type: "file" }); // another editor's
    s0.recv("fs:created", { path: "src/new.ts", type: "file" });
    expect(s0.sent.slice(3)).toEqual([
      { type: "fs:create", payload: { path: "src/new.ts", type: "file" } },
      { type: "file:open", payload: { path: "src/new.ts" } },
    ].map((m) => expect.objectContaining(m)));
  });

  it("rebuilds an active session after a reconnect, with the edits made meanwhile", () => {
    vi.useFakeTimers();
    try {
      const { store, socks, timers } = setup();
      const s0 = socks[0]!;
      s0.open();
      s0.recv("session:started", { sessionId: "s1", issueContext: null, phases: [], hintLevel: "none" });
      s0.recv("fs:content", { path: "src/cart.ts", content: "a", language: "typescript", lineCount: 1, size: 1 });
      s0.close(); // the server restarts
      expect(store.state.conn.status).toBe("reconnecting");
      store.edit("src/cart.ts", "ab", 1, 3);
      vi.advanceTimersByTime(100);
      timers[0]!();
      const s1 = socks[1]!;
      s1.open();
      s1.recv("connection:init", { sessionId: "s1", featureFlags: {} });
      vi.advanceTimersByTime(100);
      expect(s1.types()).toEqual(["connection:hello", "dashboard:request", "buffer:update", "session:get_state", "fs:get_tree", "buffer:update"]);
      expect(s1.sent.filter((m) => m.type === "buffer:update").every((m) => m.payload.content === "ab")).toBe(true);
      expect(store.state.session.id).toBe("s1");
      expect(store.state.workspace.tabs[0]?.content).toBe("ab");
    } finally {
      vi.useRealTimers();
    }
  });

  it("reopens the server's open files when a fresh page restores a session", () => {
    const { store, socks } = setup();
    socks[0]!.open();
    socks[0]!.recv("connection:init", { sessionId: "s9", featureFlags: {} });
    socks[0]!.recv("session:state", { restoredState: { sessionId: "s9", issueContext: null, phases: [], openFiles: ["a.ts", "b.ts"], startedAt: "" } });
    expect(socks[0]!.sent.filter((m) => m.type === "file:open").map((m) => m.payload.path)).toEqual(["a.ts", "b.ts"]);
    expect(store.state.session.status).toBe("active");
  });

  it("saves with the editor's content and flushes the pending buffer first", () => {
    const { store, socks } = setup();
    socks[0]!.open();
    socks[0]!.recv("fs:content", { path: "a.ts", content: "x", language: "typescript", lineCount: 1, size: 1 });
    store.edit("a.ts", "xy");
    store.save("a.ts");
    expect(socks[0]!.types().slice(-2)).toEqual(["buffer:update", "file:save"]);
    expect(socks[0]!.sent.at(-1)!.payload).toEqual({ path: "a.ts", content: "xy" });
    expect(store.state.workspace.tabs[0]!.saving).toBe("xy");
    socks[0]!.recv("fs:save_ack", { path: "a.ts", success: true, timestamp: 1 });
    expect(store.state.workspace.tabs[0]).toMatchObject({ saved: "xy", saving: null });
  });
});
