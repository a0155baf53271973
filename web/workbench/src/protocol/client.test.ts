// @vitest-environment node
import { describe, expect, it } from "vitest";
import { Client, type SocketLike } from "./client";
import type { Envelope } from "./types";

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  send(d: string) { this.sent.push(d); }
  close() { this.readyState = 3; this.onclose?.({}); }
  open() { this.readyState = 1; this.onopen?.({}); }
  drop() { this.readyState = 3; this.onclose?.({}); }
  types() { return this.sent.map((s) => (JSON.parse(s) as Envelope).type); }
}

function setup() {
  const socks: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const got: Envelope[] = [];
  const status: string[] = [];
  const opens: boolean[] = [];
  const c = new Client({
    url: "ws://x/ws",
    connect: () => { const s = new FakeSocket(); socks.push(s); return s; },
    setTimeout: (fn, ms) => { timers.push({ fn, ms }); return 0; },
    delay: (n) => 100 * (n + 1),
    onMessage: (e) => got.push(e),
    onStatus: (s) => status.push(s),
    onOpen: (send, re) => { opens.push(re); send("connection:hello", {}); },
    outboxLimit: 3,
  });
  c.start();
  return { c, socks, timers, got, status, opens };
}

describe("Client", () => {
  it("says hello first, then sends what was queued while connecting", () => {
    const { c, socks, opens } = setup();
    c.send("file:open", { path: "a.ts" });
    socks[0]!.open();
    expect(socks[0]!.types()).toEqual(["connection:hello", "file:open"]);
    expect(opens).toEqual([false]);
  });

  it("reconnects with growing backoff and re-runs onOpen", () => {
    const { c, socks, timers, status, opens } = setup();
    socks[0]!.open();
    socks[0]!.drop();
    expect(status).toEqual(["connecting", "open", "reconnecting"]);
    expect(timers.map((t) => t.ms)).toEqual([100]);
    timers[0]!.fn();
    socks[1]!.drop(); // server still down
    expect(timers.map((t) => t.ms)).toEqual([100, 200]);
    c.send("buffer:update", { path: "a.ts" });
    timers[1]!.fn();
    socks[2]!.open();
    expect(opens).toEqual([false, true]);
    expect(socks[2]!.types()).toEqual(["connection:hello", "buffer:update"]);
    socks[2]!.drop();
    expect(timers[2]!.ms).toBe(100); // a successful open resets the backoff
  });

  it("keeps a bounded outbox, dropping the oldest", () => {
    const { c, socks } = setup();
    for (let i = 0; i < 5; i++) c.send("editor:scroll", { scrollTop: i });
    socks[0]!.open();
    expect(socks[0]!.sent.slice(1).map((s) => (JSON.parse(s) as { payload: { scrollTop: number } }).payload.scrollTop)).toEqual([2, 3, 4]);
  });

  it("delivers valid envelopes and ignores garbage", () => {
    const { socks, got } = setup();
    socks[0]!.open();
    socks[0]!.onmessage!({ data: "not json" });
    socks[0]!.onmessage!({ data: JSON.stringify({ no: "type" }) });
    socks[0]!.onmessage!({ data: new ArrayBuffer(2) });
    socks[0]!.onmessage!({ data: JSON.stringify({ type: "fs:tree" }) });
    expect(got).toEqual([{ type: "fs:tree", payload: {} }]);
  });

  it("stops for good", () => {
    const { c, socks, timers } = setup();
    socks[0]!.open();
    c.stop();
    expect(timers).toEqual([]);
  });
});
