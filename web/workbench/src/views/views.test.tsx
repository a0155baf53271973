import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { TreeNode } from "../protocol/types";
import { appStore } from "../state/store";
import { Explain } from "./CoachPanel";
import { DashboardView } from "./Dashboard";
import { FileTree } from "./FileTree";

describe("FileTree", () => {
  it("renders only the rows in view of a 10,000-file tree, and shows hints", () => {
    const files: TreeNode[] = Array.from({ length: 10_000 }, (_, i) => ({ name: `f${String(i).padStart(5, "0")}.ts`, path: `src/f${String(i).padStart(5, "0")}.ts`, type: "file" }));
    const root: TreeNode = { name: "p", path: "", type: "directory", children: [{ name: "src", path: "src", type: "directory", children: files }] };
    const opened: string[] = [];
    render(<FileTree root={root} hints={{ "src/f00003.ts": { path: "src/f00003.ts", style: "obvious" } }} active={null} onOpen={(p) => opened.push(p)} />);
    const rows = screen.getAllByRole("treeitem");
    expect(rows.length).toBeLessThan(100); // src is opened by the hint; 10,001 rows exist
    expect(document.querySelector('[data-path="src/f00003.ts"]')).toHaveAttribute("data-hint", "obvious");
    fireEvent.click(document.querySelector('[data-path="src/f00003.ts"]')!);
    expect(opened).toEqual(["src/f00003.ts"]);
  });
});

describe("DashboardView", () => {
  it("renders dashboard:state at once (one skill: a list, no radar) and an issues error calmly, with Retry", () => {
    const store = appStore();
    let stats: unknown;
    render(<DashboardView />);
    act(() => {
      store.dispatch({ kind: "server", env: { type: "dashboard:state", payload: {
        dreyfus: [{ skillArea: "typescript", stage: "competent", confidence: 0.8, assessedAt: "" }],
        stats: stats = { period: "all", sessionsCompleted: 2, totalCoachingMinutes: 31, issuesWorkedOn: 1, knowledgeGapsIdentified: 0, knowledgeGapsAddressed: 0, hintsUsed: 4, apiCostTotal: 0.5, apiCostUnpricedCalls: 2 },
        inProgressSessions: [], katas: [{ id: "k", title: "Sum with quantities", topic: "reduce", attemptsCount: 0, bestLevel: null, constraintCount: 2 }],
      } } });
      store.dispatch({ kind: "server", env: { type: "dashboard:issues_error", payload: { error: "GitHub CLI not found" } } });
    });
    expect(screen.getByText("Sessions completed").nextSibling).toHaveTextContent("2");
    // calls with no known price are said to be unknown, not counted as $0
    expect(screen.getByText("API cost").nextSibling).toHaveTextContent("$0.50");
    expect(screen.getByText("+ 2 calls of unknown cost")).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: "Dreyfus stages by skill area" })).toBeNull();
    expect(screen.getByRole("list", { name: "Skill stages" })).toHaveTextContent("typescript: competent");
    expect(screen.getByRole("link", { name: "Sum with quantities" })).toHaveAttribute("href", "/practice/k");
    expect(screen.getByText("reduce · 0 attempts")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull(); // GitHub is optional: not an error
    expect(screen.getByRole("status")).toHaveTextContent("GitHub CLI not found");
    act(() => {
      store.dispatch({ kind: "server", env: { type: "dashboard:state", payload: {
        dreyfus: ["typescript", "sql", "testing"].map((skillArea) => ({ skillArea, stage: "novice", confidence: 0.5, assessedAt: "" })),
        stats, inProgressSessions: [], katas: [{ id: "k", title: "Sum with quantities", topic: "reduce", attemptsCount: 1, bestLevel: 2, constraintCount: 2 }],
      } } });
    });
    expect(screen.getByRole("img", { name: "Dreyfus stages by skill area" })).toBeInTheDocument();
    expect(screen.getByText("reduce · 1 attempt · best 2")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(screen.getByText("Loading issues…")).toBeInTheDocument();
  });
});

describe("DashboardView materials", () => {
  it("asks for fresh learning materials with Refresh", () => {
    const store = appStore();
    const send = vi.spyOn(store.client, "send");
    render(<DashboardView />);
    expect(screen.queryByRole("button", { name: "Refresh" })).toBeNull(); // nothing to refresh yet
    act(() => {
      store.dispatch({ kind: "server", env: { type: "connection:init", payload: { sessionId: "", featureFlags: { model: true } } } });
      store.dispatch({ kind: "server", env: { type: "dashboard:materials", payload: { recommendations: [
        { knowledgeGap: "SQL indexes", studyOrder: "", practiceConnection: null, resources: [
          { type: "documentation", title: "SQLite indexes", url: "https://sqlite.org/lang_createindex.html", description: "", relevance: "", estimatedTime: "20 min" }] },
      ] } } });
    });
    expect(screen.getByRole("link", { name: "SQLite indexes" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(send).toHaveBeenCalledWith("dashboard:refresh_materials", {});
    expect(screen.getByText("Finding materials…")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Refresh" })).toBeNull(); // not twice while it runs
    act(() => {
      store.dispatch({ kind: "server", env: { type: "dashboard:materials", payload: { recommendations: [
        { knowledgeGap: "Query plans", studyOrder: "", practiceConnection: null, resources: [] }] } } });
    });
    expect(screen.getByText("Query plans")).toBeInTheDocument();
  });
});

describe("DashboardView issues", () => {
  it("starts a session on an issue with Coach me on this, and says how to turn on model features offline", () => {
    const store = appStore();
    const send = vi.spyOn(store.client, "send");
    render(<DashboardView />);
    act(() => {
      store.dispatch({ kind: "server", env: { type: "connection:init", payload: { sessionId: "", featureFlags: { model: false } } } });
      store.dispatch({ kind: "server", env: { type: "dashboard:issues", payload: { issues: [
        { number: 12, title: "Cart ignores quantities", summary: "Totals are wrong.", suitability: "excellent", suitabilityReason: "", estimatedDifficulty: "low", relevantSkills: [], priorityScore: 1, learningOpportunities: [] },
      ] } } });
    });
    expect(screen.getAllByText(/Set/).filter((e) => e.textContent?.includes("ANTHROPIC_API_KEY"))).toHaveLength(1); // once, not per card
    fireEvent.click(screen.getByRole("button", { name: "Coach me on this" }));
    expect(send).toHaveBeenCalledWith("session:start", { issueNumber: 12, issueTitle: "Cart ignores quantities" });
    expect(window.location.pathname).toBe("/work");
  });
});

describe("Explain This offline", () => {
  it("says once, calmly, what to set (no red error beside the note)", () => {
    const store = appStore();
    render(<Explain />);
    act(() => {
      store.dispatch({ kind: "server", env: { type: "connection:init", payload: { sessionId: "", featureFlags: { model: false } } } });
      store.dispatch({ kind: "explain/requested", path: "src/cart.ts", selectedText: "items.reduce" });
      store.dispatch({ kind: "server", env: { type: "explain:error", payload: { path: "src/cart.ts", error: "no model configured: set ANTHROPIC_API_KEY (PAIGE_OFFLINE=1 is set)" } } });
    });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getAllByText(/ANTHROPIC_API_KEY/)).toHaveLength(1);
  });
});
