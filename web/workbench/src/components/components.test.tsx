import { act, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Nav } from "../../../shared/Nav";
import { Radar } from "./Radar";
import { TOAST_MS, Toasts } from "./Toasts";

describe("Toasts", () => {
  it("dismisses nudges after a while and keeps errors", () => {
    vi.useFakeTimers();
    try {
      const dismissed: number[] = [];
      render(<Toasts onDismiss={(id) => dismissed.push(id)} toasts={[
        { id: 1, kind: "nudge", title: "Nudge: wrong file", text: "Look at src/cart.ts" },
        { id: 2, kind: "error", title: "FILE_ERROR", text: "missing" },
      ]} />);
      expect(screen.getAllByRole("status")).toHaveLength(2);
      act(() => { vi.advanceTimersByTime(TOAST_MS + 1); });
      expect(dismissed).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("Nav", () => {
  it("marks the current page and lets the app route its own links", () => {
    const routed: string[] = [];
    render(<Nav current="work" onNavigate={(h) => (h === "/ghostpath/" ? false : (routed.push(h), true))} />);
    expect(screen.getByRole("link", { name: "Work" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("link", { name: "GhostPath" })).toHaveAttribute("href", "/ghostpath/");
    screen.getByRole("link", { name: "Practice" }).click();
    expect(routed).toEqual(["/practice"]);
  });
});

describe("Radar", () => {
  it("places one point per skill area at its stage", () => {
    const { container } = render(<Radar entries={[
      { skillArea: "typescript", stage: "competent", confidence: 0.8, assessedAt: "" },
      { skillArea: "testing", stage: "novice", confidence: 0.5, assessedAt: "" },
    ]} />);
    expect(container.querySelectorAll("circle")).toHaveLength(2);
    expect(screen.getByText("typescript (competent)")).toBeInTheDocument();
  });
});
