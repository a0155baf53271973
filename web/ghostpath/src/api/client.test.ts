import { afterEach, describe, expect, it, vi } from "vitest";
import { listSessions, mergeSessions } from "./client";

afterEach(() => vi.unstubAllGlobals());

const s = (id: string, created_at: string, last_activity_at?: string) => ({ id, problem: id, status: "active", created_at, last_activity_at });

describe("listSessions", () => {
  it("sends limit, offset and q and reads next_offset and total", async () => {
    const f = vi.fn(async () => new Response(JSON.stringify({ sessions: [s("x", "")], next_offset: 5, total: 9 })));
    vi.stubGlobal("fetch", f);
    const page = await listSessions({ limit: 5, offset: 0, q: " x " });
    expect(String((f.mock.calls[0] as unknown[])[0])).toBe("/api/v1/sessions?limit=5&offset=0&q=x");
    expect(page).toEqual({ sessions: [s("x", "")], nextOffset: 5, total: 9 });
  });

  it("guesses the next page on an old server: a full page means maybe more", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ sessions: [s("a", ""), s("b", "")] }))));
    expect((await listSessions({ limit: 2, offset: 4 })).nextOffset).toBe(6);
    expect((await listSessions({ limit: 3, offset: 4 })).nextOffset).toBeNull();
  });
});

describe("mergeSessions", () => {
  it("drops duplicates and orders by last activity, else creation", () => {
    const got = mergeSessions([s("a", "2026-01-01T00:00:00Z")], [s("a", "2026-01-01T00:00:00Z"), s("b", "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z")]);
    expect(got.map((x) => x.id)).toEqual(["b", "a"]);
  });

  it("orders by the instant, not the text: the server trims trailing zeros (28.1Z is before 28.15Z)", () => {
    const got = mergeSessions([], [s("earlier", "2026-12-05T13:23:28.1Z"), s("later", "2026-12-05T13:23:28.15Z")]);
    expect(got.map((x) => x.id)).toEqual(["later", "earlier"]);
  });

  it("keeps the server's order for the same instant", () => {
    const got = mergeSessions([s("b", "2026-12-05T13:23:28.1Z")], [s("a", "2026-12-05T13:23:28.100Z")]);
    expect(got.map((x) => x.id)).toEqual(["b", "a"]);
  });
});
