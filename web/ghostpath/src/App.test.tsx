import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "./App";

afterEach(() => vi.unstubAllGlobals());

describe("App", () => {
  it("shares the workbench navigation: links to the workbench and GhostPath, GhostPath current", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ sessions: [] }))));
    window.history.pushState(null, "", "/ghostpath/sessions/x/report-nope/extra");
    render(<App />);
    const nav = screen.getByRole("navigation", { name: "Paige" });
    expect(within(nav).getByRole("link", { name: "Paige" })).toHaveAttribute("href", "/");
    expect(within(nav).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/");
    const gp = within(nav).getByRole("link", { name: "GhostPath" });
    expect(gp).toHaveAttribute("href", "/ghostpath/");
    expect(gp).toHaveAttribute("aria-current", "page");
    await userEvent.setup().click(gp); // routed client-side, no page load
    expect(window.location.pathname).toBe("/ghostpath/");
    expect(await screen.findByText("No sessions yet.")).toBeInTheDocument();
  });
});
