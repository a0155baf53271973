import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, memoryApi, type MemoryApi, type MemoryView as View } from "../memory/api";
import { initialMemory, pendingCount, reduceMemory } from "../state/memory";
import { matchRoute } from "../router";
import { MemoryView } from "./Memory";

describe("the /memory route", () => {
  it("is the Memory page", () => {
    expect(matchRoute("/memory")).toEqual({ page: "memory" });
    expect(matchRoute("/memory/")).toEqual({ page: "memory" });
  });
});

const base = (): View => ({
  query: "",
  entries: [
    { id: "e1", type: "procedure", content: "Start the app with mix phx.server", confidence: 0.8, entities: ["mix"], evidence: "ran 4 times in 2 sessions", source: "session:aaaa", extractedAt: "2026-11-01T10:00:00Z" },
    { id: "e2", type: "preference", content: "User prefers pnpm over npm", confidence: 0.9, entities: ["pnpm"], source: "session:bbbb", extractedAt: "2026-11-02T10:00:00Z", proposal: { id: "p1", status: "pending" } },
  ],
  proposals: [{ id: "p1", type: "pattern", content: "User prefers pnpm over npm", source: "session:bbbb", extractedAt: "2026-11-02T10:00:00Z", status: "pending", entryId: "e2", session: "bbbb" }],
  memories: [{ id: "mem_s1_0", content: "Paired on the OAuth race", metadata: { session_id: "s1", project: "/r/app/.git", created_at: "2026-11-03T10:00:00Z", importance: "high", tags: "oauth" }, thisProject: true }],
  memoryStatus: "editable",
  forgotten: 0,
  more: { entries: 0, proposals: 0, memories: 0 },
});

/** fakeApi is an in-memory server: it applies each change to its view, like the real one. */
function fakeApi() {
  let v = base();
  const calls: string[] = [];
  const api: MemoryApi = {
    view: async (q) => {
      calls.push(`view ${q}`);
      const w = q.trim().toLowerCase();
      return { ...v, query: q.trim(), entries: v.entries.filter((e) => e.content.toLowerCase().includes(w)), proposals: v.proposals.filter((p) => p.content.toLowerCase().includes(w)), memories: v.memories.filter((m) => m.content.toLowerCase().includes(w)) };
    },
    pinEntry: async (id, pinned) => { calls.push(`pin ${id} ${pinned}`); v.entries = v.entries.map((e) => (e.id === id ? { ...e, pinned } : e)); return v.entries[0]!; },
    editEntry: async (id, content) => { calls.push(`edit ${id} ${content}`); v.entries = v.entries.map((e) => (e.id === id ? { ...e, content } : e)); return v.entries[0]!; },
    forgetEntry: async (id) => { calls.push(`forget ${id}`); v = { ...v, entries: v.entries.filter((e) => e.id !== id), forgotten: v.forgotten + 1 }; return base().entries[0]!; },
    decide: async (id, accept) => {
      calls.push(`decide ${id} ${accept}`);
      if (v.proposals.find((p) => p.id === id)?.status !== "pending") throw new ApiError(409, "conflict: proposal is accepted");
      const status = accept ? ("accepted" as const) : ("rejected" as const);
      v.proposals = v.proposals.map((p) => (p.id === id ? { ...p, status, decidedAt: "2026-11-04T10:00:00Z" } : p));
      v.entries = v.entries.map((e) => (e.proposal?.id === id ? { ...e, proposal: { id, status } } : e));
      return { proposal: v.proposals[0]!, warnings: [] };
    },
    editMemory: async (id, content) => { calls.push(`editMemory ${id} ${content}`); v.memories = v.memories.map((m) => (m.id === id ? { ...m, content } : m)); return v.memories[0]!; },
    forgetMemory: async (id) => { calls.push(`forgetMemory ${id}`); v.memories = v.memories.filter((m) => m.id !== id); return null; },
  };
  return { api, calls };
}

afterEach(() => vi.restoreAllMocks());

describe("reduceMemory", () => {
  it("drops a view answering an older query, and tracks busy, done and failed", () => {
    let s = reduceMemory(initialMemory, { kind: "query", query: "pnpm" });
    expect(s.loading).toBe(true);
    expect(reduceMemory(s, { kind: "loaded", view: { ...base(), query: "" } })).toBe(s);
    s = reduceMemory(s, { kind: "loaded", view: { ...base(), query: "pnpm" } });
    expect(s.view?.query).toBe("pnpm");
    expect(pendingCount(s.view)).toBe(1);
    s = reduceMemory(s, { kind: "busy", id: "e1" });
    expect(s.busy).toBe("e1");
    s = reduceMemory(s, { kind: "failed", error: "no learned entry" });
    expect(s).toMatchObject({ busy: null, error: "no learned entry" });
    s = reduceMemory(reduceMemory(s, { kind: "busy", id: "e1" }), { kind: "done", notice: "Saved." });
    expect(s).toMatchObject({ busy: null, error: null, notice: "Saved." });
  });
});

describe("memoryApi", () => {
  it("sends JSON to the REST routes and turns a refusal into an ApiError with the server's message", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) =>
      init?.method === "PATCH" ? new Response('{"error":"invalid request: content is empty"}', { status: 400 }) : new Response('{"proposal":{},"warnings":[]}', { status: 200 }));
    await memoryApi.decide("p 1", true);
    expect(fetchMock).toHaveBeenLastCalledWith("/api/memory/proposals/p%201/accept", expect.objectContaining({ method: "POST", body: "{}", headers: { "Content-Type": "application/json" } }));
    await expect(memoryApi.editEntry("e1", " ")).rejects.toMatchObject({ status: 400, message: "invalid request: content is empty" });
    await memoryApi.view("  pnpm ");
    expect(fetchMock).toHaveBeenLastCalledWith("/api/memory?q=pnpm", expect.objectContaining({ method: "GET" }));
  });
});

describe("MemoryView", () => {
  it("lists the three stores with the learn → seed loop, searches, pins, edits, forgets and accepts", async () => {
    const { api, calls } = fakeApi();
    render(<MemoryView api={api} delay={0} />);
    const learned = await screen.findByRole("region", { name: "Learned" });
    expect(within(learned).getByText("Start the app with mix phx.server")).toBeInTheDocument();
    expect(within(learned).getByText(/Evidence: ran 4 times in 2 sessions/)).toBeInTheDocument();
    expect(within(learned).getByText("seed: pending")).toBeInTheDocument();
    const proposals = screen.getByRole("region", { name: "Proposals for your seed" });
    expect(within(proposals).getByText(/proposed from session:bbbb/)).toBeInTheDocument();
    expect(within(proposals).getByText(/From the learned preference “User prefers pnpm over npm”/)).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Coach memories" })).getByText("this project")).toBeInTheDocument();
    expect(screen.queryByText(/more not listed/)).toBeNull();

    fireEvent.change(screen.getByRole("searchbox", { name: "Search memory" }), { target: { value: "pnpm" } });
    await waitFor(() => expect(within(screen.getByRole("region", { name: "Learned" })).queryByText("Start the app with mix phx.server")).toBeNull());
    expect(calls).toContain("view pnpm");
    fireEvent.change(screen.getByRole("searchbox", { name: "Search memory" }), { target: { value: "" } });
    await screen.findByText("Start the app with mix phx.server");

    fireEvent.click(screen.getByRole("button", { name: /^Pin learned procedure/ }));
    await screen.findByText("pinned");
    expect(screen.getByRole("status")).toHaveTextContent("Pinned: it goes into the context first.");

    fireEvent.click(screen.getByRole("button", { name: /^Edit learned procedure/ }));
    fireEvent.change(screen.getByRole("textbox", { name: /^New content of learned procedure/ }), { target: { value: "Start with iex -S mix phx.server" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await screen.findByText("Start with iex -S mix phx.server");

    fireEvent.click(screen.getByRole("button", { name: /^Accept proposal/ }));
    await waitFor(() => expect(document.querySelector('[data-proposal="p1"]')).toHaveAttribute("data-status", "accepted"));
    expect(screen.getByText("seed: accepted")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Accept proposal/ })).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: /^Forget learned preference/ }));
    expect(calls).not.toContain("forget e2"); // asks first
    fireEvent.click(screen.getByRole("button", { name: "Yes, forget" }));
    await screen.findByText("1 forgotten entry is kept out of every context.");
    expect(calls).toEqual(expect.arrayContaining(["pin e1 true", "edit e1 Start with iex -S mix phx.server", "decide p1 true", "forget e2"]));

    fireEvent.click(screen.getByRole("button", { name: "Forget memory mem_s1_0" }));
    fireEvent.click(screen.getByRole("button", { name: "Yes, forget" }));
    await screen.findByText(/No memories/);
  });

  it("says how many items are not listed", async () => {
    const { api } = fakeApi();
    const view = api.view;
    api.view = async (q) => ({ ...(await view(q)), more: { entries: 12, proposals: 0, memories: 0 } });
    render(<MemoryView api={api} delay={0} />);
    const learned = await screen.findByRole("region", { name: "Learned" });
    expect(await within(learned).findByText("12 more not listed; search to narrow them down.")).toBeInTheDocument();
  });

  it("shows the server's refusal and keeps the page usable", async () => {
    const { api } = fakeApi();
    api.pinEntry = async () => { throw new ApiError(409, "conflict: entry e1 is forgotten or superseded"); };
    render(<MemoryView api={api} delay={0} />);
    fireEvent.click(await screen.findByRole("button", { name: /^Pin learned procedure/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("entry e1 is forgotten or superseded");
    await act(async () => {});
    expect(screen.getByRole("button", { name: /^Pin learned procedure/ })).not.toBeDisabled();
  });
});
