import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionPage } from "./SessionPage";

// A scripted server: each call to fetch answers the next entry, and the test
// checks what the page sent. The real server is exercised by the Playwright
// flow (internal/ideate/web/e2e_test.go); this checks the page's wiring alone.
type Answer = { method: string; path: string; status?: number; json?: unknown; sse?: unknown[] };

function sse(events: unknown[]): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
  return new Response(text, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

function server(script: Answer[]) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const path = String(input);
    sent.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const next = script.shift();
    if (!next || next.method !== method || next.path !== path) {
      throw new Error(`unexpected ${method} ${path}, script wanted ${next?.method} ${next?.path}`);
    }
    if (next.sse) return sse(next.sse);
    return new Response(JSON.stringify(next.json ?? {}), { status: next.status ?? 200, headers: { "Content-Type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return sent;
}

// runErrorAlert opens active session id, whose stream sends events, and
// returns the alert the page shows.
async function runErrorAlert(id: string, events: unknown[]): Promise<HTMLElement> {
  server([
    { method: "GET", path: `/api/v1/sessions/${id}`, json: { id, problem: "p", status: "active", created_at: "" } },
    { method: "GET", path: `/api/v1/sessions/${id}/stream`, sse: events },
  ]);
  render(<SessionPage id={id} />);
  return screen.findByRole("alert");
}

const premises = (r: number) =>
  [0, 1, 2].map((i) => ({ id: `r${r}p${i}`, title: `Idea ${r}.${i}`, body: `Body ${r}.${i}`, premise_type: "initial" }));
const usage = { tokens_used: 5000, tokens_limit: 1_000_000, tokens_remaining: 995_000, usage_percentage: 0.5, estimated_rounds_left: 199 };

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("SessionPage", () => {
  it("runs a session: round, scores, question, round 2, resolve, spec", async () => {
    const user = userEvent.setup();
    const sent = server([
      { method: "GET", path: "/api/v1/sessions/s1", json: { id: "s1", problem: "How do we X?", status: "created", created_at: "" } },
      {
        method: "GET",
        path: "/api/v1/sessions/s1/stream",
        sse: [
          { type: "context_usage", data: usage },
          { type: "tool_call", data: { tool: "decompose_problem", input_preview: "{}" } },
          { type: "premises", data: premises(1) },
          { type: "done", data: { error: false, awaiting_input: true } },
        ],
      },
      {
        method: "POST",
        path: "/api/v1/sessions/s1/user-input",
        sse: [
          { type: "ask_user", data: { question: "Speed or cost?", options: [{ label: "Speed" }, { label: "Cost" }] } },
          { type: "done", data: { error: false, awaiting_input: true } },
        ],
      },
      {
        method: "POST",
        path: "/api/v1/sessions/s1/user-input",
        sse: [
          { type: "premises", data: premises(2) },
          { type: "done", data: { error: false, awaiting_input: true } },
        ],
      },
      {
        method: "POST",
        path: "/api/v1/sessions/s1/user-input",
        sse: [
          { type: "agent_text", data: "Excellent choice!" },
          { type: "final_spec", data: "# The Spec\n\n- do **this**" },
          { type: "spec_file_ready", data: { download_url: "/api/v1/sessions/s1/spec" } },
          { type: "done", data: { error: false, awaiting_input: false } },
        ],
      },
    ]);
    render(<SessionPage id="s1" />);

    expect(await screen.findByRole("heading", { name: "Round 1" })).toBeInTheDocument();
    expect(screen.getByText("How do we X?")).toBeInTheDocument();
    expect(screen.getByRole("meter", { name: "Context used" })).toHaveAttribute("aria-valuenow", "0.5");
    expect(screen.getByText("Decomposing the problem")).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Score for “Idea 1.0”"), { target: { value: "8" } });
    fireEvent.change(screen.getByLabelText("Score for “Idea 1.1”"), { target: { value: "4.2" } });
    fireEvent.change(screen.getByLabelText("Score for “Idea 1.2”"), { target: { value: "6" } });
    await user.click(screen.getByRole("button", { name: "Next Round →" }));

    await user.click(await screen.findByRole("radio", { name: "Speed" }));
    await user.click(screen.getByRole("button", { name: "Submit response" }));

    expect(await screen.findByRole("heading", { name: "Round 2" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "✓ Problem Resolved" }));
    await user.click(screen.getByRole("radio", { name: /Idea 2.1/ }));
    await user.click(screen.getByRole("button", { name: "Generate final spec" }));

    expect(await screen.findByRole("heading", { level: 1, name: "The Spec" }, { timeout: 20_000 })).toBeInTheDocument(); // the renderer loads lazily
    expect(screen.getByRole("link", { name: "Download spec (.md)" })).toHaveAttribute("href", "/api/v1/sessions/s1/spec");
    // Once the run has ended (done may arrive just after the spec), a finished session has nothing to cancel.
    await waitFor(() => expect(screen.queryByRole("button", { name: "Cancel session" })).toBeNull());
    expect(screen.getByText("Excellent choice!")).toBeInTheDocument();

    const inputs = sent.filter((s) => s.method === "POST").map((s) => s.body);
    expect(inputs).toEqual([
      {
        type: "scores",
        scores: [
          { premise_id: "r1p0", premise_title: "Idea 1.0", score: 8 },
          { premise_id: "r1p1", premise_title: "Idea 1.1", score: 4.2 },
          { premise_id: "r1p2", premise_title: "Idea 1.2", score: 6 },
        ],
      },
      { type: "ask_user_response", response: "Speed" },
      { type: "resolved", winner: { title: "Idea 2.1", index: 1 } },
    ]);
    // The report page can fall back to this local copy of the rounds.
    const stored = JSON.parse(localStorage.getItem("ghostpath:rounds:s1")!);
    expect(stored.map((r: { number: number; winnerId?: string }) => [r.number, r.winnerId])).toEqual([
      [1, undefined],
      [2, "r2p1"],
    ]);
  });

  it("keeps the round on screen when the server rejects the scores", async () => {
    const user = userEvent.setup();
    server([
      { method: "GET", path: "/api/v1/sessions/s2", json: { id: "s2", problem: "p", status: "active", created_at: "" } },
      {
        method: "GET",
        path: "/api/v1/sessions/s2/stream",
        sse: [{ type: "premises", data: premises(1) }, { type: "done", data: { awaiting_input: true } }],
      },
      {
        method: "POST",
        path: "/api/v1/sessions/s2/user-input",
        status: 400,
        json: { error: { code: "VALIDATION_ERROR", message: "scores: exactly 3 required" } },
      },
    ]);
    render(<SessionPage id="s2" />);
    await screen.findByRole("heading", { name: "Round 1" });
    for (const i of [0, 1, 2]) fireEvent.change(screen.getByLabelText(`Score for “Idea 1.${i}”`), { target: { value: "5.5" } });
    await user.click(screen.getByRole("button", { name: "Next Round →" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("scores: exactly 3 required");
    expect(alert).toHaveTextContent("Error code VALIDATION_ERROR");
    expect(screen.getByRole("heading", { name: "Round 1" })).toBeInTheDocument();
  });

  it("shows a run error as a sentence for people, with the codes as a small detail, and offers Resume", async () => {
    const message = "Claude is receiving too many requests from this API key right now. Wait a minute, then resume the session.";
    const alert = await runErrorAlert("s9", [
      { type: "agent_text", data: "Let me look." },
      { type: "error", data: { code: "ANTHROPIC_API_ERROR", message, severity: "critical", recoverable: false, tool_name: null, api_code: "rate_limit" } },
      { type: "done", data: { error: true, awaiting_input: false } },
    ]);
    const [first, detail] = alert.querySelectorAll("p");
    expect(first).toHaveTextContent(message); // the sentence leads
    expect(first).not.toHaveTextContent("ANTHROPIC_API_ERROR");
    expect(detail).toHaveTextContent("Error code ANTHROPIC_API_ERROR · rate_limit");
    expect(screen.getByRole("button", { name: "Resume" })).toBeInTheDocument();
  });

  it("shows a run error without api_code with its code only", async () => {
    const message = "Something unexpected went wrong inside Paige. The details are in Paige's server log.";
    const alert = await runErrorAlert("s10", [
      { type: "error", data: { code: "INTERNAL_ERROR", message, severity: "critical", recoverable: false } },
      { type: "done", data: { error: true } },
    ]);
    expect(alert).toHaveTextContent(message);
    expect(alert.querySelectorAll("p")[1]).toHaveTextContent(/^Error code INTERNAL_ERROR$/);
  });

  it("shows a resolved session's stored spec without streaming", async () => {
    server([
      { method: "GET", path: "/api/v1/sessions/s3", json: { id: "s3", problem: "p", status: "resolved", created_at: "" } },
    ]);
    const fetchMock = globalThis.fetch as ReturnType<typeof vi.fn>;
    const scripted = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input) === "/api/v1/sessions/s3/spec"
        ? new Response("## Stored spec", { status: 200, headers: { "Content-Type": "text/markdown" } })
        : scripted(input, init),
    );
    render(<SessionPage id="s3" />);
    expect(await screen.findByRole("heading", { level: 2, name: "Stored spec" }, { timeout: 20_000 })).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it("does not stream a cancelled session and says so", async () => {
    server([{ method: "GET", path: "/api/v1/sessions/s4", json: { id: "s4", problem: "p", status: "cancelled", created_at: "" } }]);
    render(<SessionPage id="s4" />);
    expect(await screen.findByText(/This session was cancelled/)).toBeInTheDocument();
    expect(globalThis.fetch).toHaveBeenCalledTimes(1);
  });

  it("cancels a running turn", async () => {
    const user = userEvent.setup();
    let release: () => void = () => {};
    const sent: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const path = String(input);
        sent.push(`${init?.method ?? "GET"} ${path}`);
        if (path === "/api/v1/sessions/s5") return new Response(JSON.stringify({ id: "s5", problem: "p", status: "created", created_at: "" }));
        if (path.endsWith("/cancel")) {
          release();
          return new Response(JSON.stringify({ message: "Session cancelled" }));
        }
        // A stream that stays open until the run is cancelled.
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode('data: {"type":"agent_text","data":"thinking"}\n\n'));
            release = () => c.close();
          },
        });
        return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
      }),
    );
    render(<SessionPage id="s5" />);
    expect(await screen.findByText("thinking")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("GhostPath is working…");
    await user.click(screen.getByRole("button", { name: "Cancel session" }));
    await user.click(screen.getByRole("button", { name: "No, keep it" }));
    expect(sent).not.toContain("POST /api/v1/sessions/s5/cancel");
    await user.click(screen.getByRole("button", { name: "Cancel session" }));
    expect(screen.getByRole("alertdialog", { name: "Cancel this session?" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Yes, cancel it" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("This session was cancelled.");
    expect(alert).not.toHaveTextContent("CANCELLED");
    expect(screen.queryByRole("button", { name: "Resume" })).toBeNull();
    expect(sent).toContain("POST /api/v1/sessions/s5/cancel");
  });

  it("cancels a session paused at a round: the round goes away and it says cancelled", async () => {
    const user = userEvent.setup();
    server([
      { method: "GET", path: "/api/v1/sessions/s11", json: { id: "s11", problem: "p", status: "active", created_at: "" } },
      {
        method: "GET",
        path: "/api/v1/sessions/s11/stream",
        sse: [{ type: "premises", data: premises(1) }, { type: "done", data: { awaiting_input: true } }],
      },
      { method: "POST", path: "/api/v1/sessions/s11/cancel", json: { message: "Session cancelled" } },
    ]);
    render(<SessionPage id="s11" />);
    await screen.findByRole("heading", { name: "Round 1" });
    await user.click(screen.getByRole("button", { name: "Cancel session" }));
    await user.click(screen.getByRole("button", { name: "Yes, cancel it" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This session was cancelled.");
    expect(screen.queryByRole("heading", { name: "Round 1" })).toBeNull();
    expect(screen.queryByRole("slider")).toBeNull();
    expect(screen.queryByRole("button", { name: "Cancel session" })).toBeNull();
  });

  it("deletes the session after confirmation and goes home", async () => {
    const user = userEvent.setup();
    const sent: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        sent.push(`${init?.method ?? "GET"} ${String(input)}`);
        if (init?.method === "DELETE") return new Response(null, { status: 204 });
        if (String(input).endsWith("/spec")) return new Response("# Done", { status: 200 });
        return new Response(JSON.stringify({ id: "s6", problem: "p", status: "resolved", created_at: "" }));
      }),
    );
    render(<SessionPage id="s6" />);
    expect(await screen.findByRole("button", { name: "Delete session" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancel session" })).toBeNull(); // resolved: nothing to cancel
    await user.click(screen.getByRole("button", { name: "Delete session" }));
    expect(screen.getByRole("alertdialog", { name: "Delete this session?" })).toHaveTextContent("This cannot be undone.");
    expect(sent).not.toContain("DELETE /api/v1/sessions/s6");
    await user.click(screen.getByRole("button", { name: "Yes, delete it" }));
    await waitFor(() => expect(window.location.pathname).toBe("/ghostpath/"));
    expect(sent).toContain("DELETE /api/v1/sessions/s6");
  });

  it("reports a missing session", async () => {
    server([
      { method: "GET", path: "/api/v1/sessions/nope", status: 404, json: { error: { code: "RESOURCE_NOT_FOUND", message: "Session not found" } } },
    ]);
    render(<SessionPage id="nope" />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not open this session: Session not found");
  });
});

describe("SessionPage spends nothing on its own (issue 28)", () => {
  it("a failed session shows its error and its scored round, and streams only on Resume", async () => {
    const user = userEvent.setup();
    const scored = premises(1).map((p, i) => ({ ...p, score: 5 + i, user_comment: i === 0 ? "too safe" : null }));
    const sent = server([
      {
        method: "GET",
        path: "/api/v1/sessions/s2",
        json: {
          id: "s2", problem: "How do we Y?", title: "Y ideas", status: "active", created_at: "", waiting_for: "resume",
          run_error: { code: "ANTHROPIC_API_ERROR", api_code: "overloaded_error", message: "Claude is overloaded." },
          rounds: [{ round_number: 1, premises: scored }],
        },
      },
      {
        method: "GET",
        path: "/api/v1/sessions/s2/stream",
        sse: [{ type: "premises", data: premises(2) }, { type: "done", data: { error: false, awaiting_input: true } }],
      },
    ]);
    render(<SessionPage id="s2" />);
    expect(await screen.findByText("Claude is overloaded.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Y ideas" })).toBeInTheDocument();
    expect(screen.getByText(/Your score: 5\.0/)).toBeInTheDocument();
    expect(screen.getByText(/too safe/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Next Round/ })).toBeNull();
    expect(sent).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "Resume" }));
    expect(await screen.findByRole("heading", { name: "Round 2" })).toBeInTheDocument();
    expect(sent.map((s) => s.path)).toEqual(["/api/v1/sessions/s2", "/api/v1/sessions/s2/stream"]);
  });

  it("a resolved session without its spec offers Continue, which asks for it", async () => {
    const user = userEvent.setup();
    const sent = server([
      { method: "GET", path: "/api/v1/sessions/s3", json: { id: "s3", problem: "How do we Z?", status: "resolved", created_at: "", waiting_for: "spec" } },
      { method: "GET", path: "/api/v1/sessions/s3/spec", status: 404, json: { error: { code: "RESOURCE_NOT_FOUND", message: "no spec" } } },
      {
        method: "GET",
        path: "/api/v1/sessions/s3/stream",
        sse: [{ type: "final_spec", data: "# Z spec" }, { type: "done", data: { error: false, awaiting_input: true } }],
      },
    ]);
    render(<SessionPage id="s3" />);
    await user.click(await screen.findByRole("button", { name: "Continue: ask for the spec" }));
    expect(await screen.findByRole("heading", { name: "Z spec" })).toBeInTheDocument();
    expect(sent.map((s) => s.path)).toEqual(["/api/v1/sessions/s3", "/api/v1/sessions/s3/spec", "/api/v1/sessions/s3/stream"]);
  });
});
