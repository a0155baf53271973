import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HomePage } from "./HomePage";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const sessions = [
  { id: "s-1", problem: "First problem, resolved", status: "resolved", created_at: "2026-11-21T05:00:00Z" },
  { id: "s-2", problem: "Second problem, running", status: "active", created_at: "2026-11-21T05:10:00Z" },
];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

describe("HomePage", () => {
  it("lists past sessions with status, report link, delete in every state and cancel while running", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json({ sessions, pagination: { limit: 50, offset: 0 } })));
    render(<HomePage />);
    const items = (await screen.findAllByRole("listitem")).reverse(); // newest activity first: s-2, s-1
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole("link", { name: "First problem, resolved" })).toHaveAttribute("href", "/ghostpath/sessions/s-1");
    expect(within(items[0]!).getByText("resolved")).toBeInTheDocument();
    expect(within(items[0]!).getByRole("link", { name: "Report" })).toHaveAttribute("href", "/ghostpath/sessions/s-1/report");
    expect(within(items[0]!).getByRole("button", { name: /^Delete session/ })).toBeInTheDocument();
    expect(within(items[0]!).queryByRole("button", { name: /^Cancel session/ })).toBeNull();
    expect(within(items[1]!).getByRole("button", { name: /^Delete session/ })).toBeInTheDocument();
    expect(within(items[1]!).getByRole("button", { name: /^Cancel session/ })).toBeInTheDocument();
  });

  it("creates a session and opens it", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn(async (_: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === "POST") return json({ id: "new-1", problem: "p", status: "created" }, 201);
      return json({ sessions: [] });
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<HomePage />);
    expect(await screen.findByText("No sessions yet.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("What problem do you want to solve?"), "  How do we cut support load?  ");
    await user.click(screen.getByRole("button", { name: "Start exploring" }));
    await waitFor(() => expect(window.location.pathname).toBe("/ghostpath/sessions/new-1"));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST")!;
    expect(post[0]).toBe("/api/v1/sessions");
    expect(JSON.parse(String(post[1]!.body))).toEqual({ problem: "How do we cut support load?" });
  });

  it("shows the API's validation error", async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_: RequestInfo | URL, init?: RequestInit) =>
        init?.method === "POST"
          ? json({ error: { code: "VALIDATION_ERROR", message: "problem: must be at least 10 characters" } }, 400)
          : json({ sessions: [] }),
      ),
    );
    render(<HomePage />);
    await user.type(screen.getByLabelText("What problem do you want to solve?"), "0123456789");
    await user.click(screen.getByRole("button", { name: "Start exploring" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("problem: must be at least 10 characters");
    expect(screen.getByRole("button", { name: "Start exploring" })).toBeEnabled();
  });

  it("deletes a session after confirmation and refreshes the list", async () => {
    const user = userEvent.setup();
    let current = [...sessions];
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === "DELETE") {
        current = current.filter((s) => !String(input).endsWith(s.id));
        return new Response(null, { status: 204 });
      }
      return json({ sessions: current });
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<HomePage />);
    await user.click(await screen.findByRole("button", { name: /^Delete session: First/ }));
    const dialog = screen.getByRole("alertdialog", { name: "Delete this session?" });
    expect(dialog).toHaveTextContent("First problem, resolved");
    expect(dialog).toHaveTextContent("This cannot be undone.");
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "DELETE")).toBe(false);
    await user.click(screen.getByRole("button", { name: "Yes, delete it" }));
    await waitFor(() => expect(screen.queryByText("First problem, resolved")).toBeNull());
    expect(fetchMock).toHaveBeenCalledWith("/api/v1/sessions/s-1", { method: "DELETE" });
  });

  it("cancels a running session after confirmation, not without", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn(async (_: RequestInfo | URL, init?: RequestInit) =>
      init?.method === "POST" ? json({ message: "Session cancelled" }) : json({ sessions }),
    );
    vi.stubGlobal("fetch", fetchMock);
    render(<HomePage />);
    const cancel = await screen.findByRole("button", { name: /^Cancel session: Second/ });
    await user.click(cancel);
    expect(screen.getByRole("button", { name: "No, keep it" })).toHaveFocus(); // Enter never destroys by accident
    await user.click(screen.getByRole("button", { name: "No, keep it" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await user.click(cancel);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
    await user.click(cancel);
    expect(screen.getByRole("alertdialog", { name: "Cancel this session?" })).toHaveTextContent("cannot be resumed");
    await user.click(screen.getByRole("button", { name: "Yes, cancel it" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith("/api/v1/sessions/s-2/cancel", { method: "POST" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("searches by problem text (q), filtering itself when the server ignores q", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn(async (_: RequestInfo | URL) => json({ sessions })); // an old server: ignores q
    vi.stubGlobal("fetch", fetchMock);
    render(<HomePage />);
    await screen.findByText("First problem, resolved");
    await user.type(screen.getByRole("searchbox", { name: "Search sessions by problem" }), "RUNNING");
    await waitFor(() => expect(screen.queryByText("First problem, resolved")).toBeNull());
    expect(screen.getByText("Second problem, running")).toBeInTheDocument();
    expect(String(fetchMock.mock.calls.at(-1)![0])).toContain("q=RUNNING");
    await user.clear(screen.getByRole("searchbox"));
    await user.type(screen.getByRole("searchbox"), "nothing like it");
    expect(await screen.findByText("No session matches your search.")).toBeInTheDocument();
  });

  it("pages with Load more (next_offset) and sorts by last activity", async () => {
    const user = userEvent.setup();
    const page1 = [{ id: "a", problem: "Old but busy", status: "active", created_at: "2026-01-01T00:00:00Z", last_activity_at: "2026-11-22T00:00:00Z" }];
    const page2 = [{ id: "b", problem: "Newer, idle", status: "created", created_at: "2026-11-01T00:00:00Z" }];
    const fetchMock = vi.fn(async (input: RequestInfo | URL) =>
      String(input).includes("offset=0")
        ? json({ sessions: page1, total: 2, next_offset: 1 })
        : json({ sessions: [...page2, ...page1], total: 2 }),
    );
    vi.stubGlobal("fetch", fetchMock);
    render(<HomePage />);
    await screen.findByText("Old but busy");
    expect(screen.getByText("(2)")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Load more" }));
    await screen.findByText("Newer, idle");
    expect(String(fetchMock.mock.calls.at(-1)![0])).toContain("offset=1");
    const items = within(screen.getByRole("list")).getAllByRole("listitem");
    expect(items.map((i) => within(i).getAllByRole("link")[0]!.textContent)).toEqual(["Old but busy", "Newer, idle"]);
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });
});
