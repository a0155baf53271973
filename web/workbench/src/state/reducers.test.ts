// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { DashboardState, Envelope } from "../protocol/types";
import { initialApp, reduceApp } from "./app";
import { initialDashboard, reduceDashboard } from "./dashboard";
import { initialPractice, reducePractice } from "./practice";
import { initialSession, reduceSession } from "./session";
import { applyTreeUpdate, visibleRows } from "./tree";
import { initialWorkspace, isDirty, reduceWorkspace } from "./workspace";

const env = (type: string, payload: unknown): Envelope => ({ type, payload });

const zeroState: DashboardState = {
  dreyfus: [],
  stats: { period: "all", sessionsCompleted: 0, totalCoachingMinutes: 0, issuesWorkedOn: 0, knowledgeGapsIdentified: 0, knowledgeGapsAddressed: 0, hintsUsed: 0, apiCostTotal: 0, apiCostUnpricedCalls: 0 },
  inProgressSessions: [],
  katas: [],
};

describe("reduceDashboard", () => {
  it("renders state at once; issues and materials fill in or fail inline", () => {
    let s = reduceDashboard(initialDashboard, { kind: "dashboard/requested", period: "7d" });
    expect(s.issues.status).toBe("loading");
    const gaps = { ...zeroState, stats: { ...zeroState.stats, period: "7d" as const, knowledgeGapsIdentified: 2 } };
    s = reduceDashboard(s, env("dashboard:state", gaps));
    expect(s.state).toEqual(gaps);
    expect(s.materials.status).toBe("loading");
    s = reduceDashboard(s, env("dashboard:issues_error", { error: "GitHub CLI not found" }));
    expect(s.issues).toEqual({ status: "error", error: "GitHub CLI not found" });
    s = reduceDashboard(s, { kind: "dashboard/issues_requested" });
    expect(s.issues.status).toBe("loading");
    s = reduceDashboard(s, env("dashboard:issues", { issues: [{ number: 3, title: "Cart" }] }));
    expect(s.issues).toMatchObject({ status: "ready", data: [{ number: 3 }] });
    s = reduceDashboard(s, env("dashboard:materials", { recommendations: [{ knowledgeGap: "reduce", resources: [] }] }));
    expect(s.materials).toMatchObject({ status: "ready", data: [{ knowledgeGap: "reduce" }] });
    s = reduceDashboard(s, { kind: "dashboard/materials_requested" });
    expect(s.materials.status).toBe("loading");
    expect(s.issues.status).toBe("ready");
  });

  it("expects no materials when no knowledge gap is open", () => {
    let s = reduceDashboard(initialDashboard, { kind: "dashboard/requested", period: "all" });
    s = reduceDashboard(s, env("dashboard:state", zeroState));
    expect(s.materials.status).toBe("idle");
  });
});

describe("tree", () => {
  const root = { name: "p", path: "", type: "directory" as const, children: [{ name: "src", path: "src", type: "directory" as const, children: [{ name: "cart.ts", path: "src/cart.ts", type: "file" as const }] }] };
  it("adds, removes and renames nodes", () => {
    let t = applyTreeUpdate(root, { action: "add", path: "src/lib/new.ts" });
    expect(visibleRows(t, new Set(["src", "src/lib"])).map((r) => r.node.path)).toEqual(["src", "src/lib", "src/lib/new.ts", "src/cart.ts"]);
    t = applyTreeUpdate(t, { action: "unlinkDir", path: "src/lib" });
    t = applyTreeUpdate(t, { action: "add", path: "src/cart.ts", newPath: "src/basket.ts" });
    expect(visibleRows(t, new Set(["src"])).map((r) => [r.node.path, r.depth])).toEqual([["src", 0], ["src/basket.ts", 1]]);
    expect(root.children[0]!.children).toHaveLength(1); // the old tree is unchanged
  });
  it("flattens only expanded directories", () => {
    expect(visibleRows(root, new Set()).map((r) => r.node.path)).toEqual(["src"]);
    expect(visibleRows(null, new Set())).toEqual([]);
  });
});

describe("reduceWorkspace", () => {
  it("opens files as tabs, tracks edits, saves and errors", () => {
    let s = reduceWorkspace(initialWorkspace, env("fs:content", { path: "src/cart.ts", content: "a", language: "typescript", lineCount: 1, size: 1 }));
    expect(s.active).toBe("src/cart.ts");
    s = reduceWorkspace(s, { kind: "tab/edit", path: "src/cart.ts", content: "ab" });
    expect(isDirty(s.tabs[0]!)).toBe(true);
    s = reduceWorkspace(s, { kind: "tab/saving", path: "src/cart.ts", content: "ab" });
    s = reduceWorkspace(s, { kind: "tab/edit", path: "src/cart.ts", content: "abc" }); // typed while saving
    s = reduceWorkspace(s, env("fs:save_ack", { path: "src/cart.ts", success: true, timestamp: 5 }));
    expect(s.tabs[0]).toMatchObject({ saved: "ab", content: "abc", saving: null, savedAt: 5 });
    s = reduceWorkspace(s, { kind: "tab/saving", path: "src/cart.ts", content: "abc" });
    s = reduceWorkspace(s, env("fs:save_error", { path: "src/cart.ts", error: "disk full" }));
    expect(s.tabs[0]).toMatchObject({ saved: "ab", saveError: "disk full", saving: null });
    // Reopening keeps unsaved edits.
    s = reduceWorkspace(s, env("editor:open_file", { path: "src/cart.ts", content: "disk", language: "typescript" }));
    expect(s.tabs[0]).toMatchObject({ content: "abc", saved: "disk" });
    s = reduceWorkspace(s, { kind: "tab/close", path: "src/cart.ts" });
    expect(s.tabs).toEqual([]);
    expect(s.active).toBeNull();
  });

  it("accumulates highlights and hints until cleared", () => {
    let s = reduceWorkspace(initialWorkspace, env("editor:highlight_lines", { path: "a.ts", start: 1, end: 2, style: "info" }));
    s = reduceWorkspace(s, env("editor:highlight_lines", { path: "a.ts", start: 5, end: 5, style: "warning" }));
    expect(s.highlights["a.ts"]).toHaveLength(2);
    s = reduceWorkspace(s, env("editor:clear_highlights", {}));
    expect(s.highlights).toEqual({});
    s = reduceWorkspace(s, env("explorer:hint_files", { hints: [{ path: "src/cart.ts", style: "obvious" }] }));
    expect(s.hints["src/cart.ts"]?.style).toBe("obvious");
    s = reduceWorkspace(s, env("explorer:clear_hints", {}));
    expect(s.hints).toEqual({});
    s = reduceWorkspace(s, env("editor:hover_hint", { path: "a.ts", range: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 4 }, hintText: "look" }));
    expect(s.hovers["a.ts"]?.[0]?.hintText).toBe("look");
  });
});

describe("reduceSession", () => {
  it("follows a session from start to wrap-up", () => {
    let s = reduceSession(initialSession, env("session:started", { sessionId: "s1", issueContext: { number: 7, title: "Totals" }, phases: [], hintLevel: "none" }));
    expect(s).toMatchObject({ id: "s1", status: "active", issue: { number: 7 } });
    s = reduceSession(s, env("coaching:plan_ready", { planId: "p", phases: [{ id: "a", number: 1, title: "Read", status: "pending" }, { id: "b", number: 2, title: "Fix", status: "pending" }], memoryConnection: null, estimatedDifficulty: "low" }));
    s = reduceSession(s, env("coaching:phase_update", { phase: { id: "a", number: 1, title: "Read", status: "active" }, status: "active", description: "" }));
    expect(s.phases.map((p) => p.status)).toEqual(["active", "pending"]);
    s = reduceSession(s, env("observer:status", { active: true, muted: true, lastEvaluation: null }));
    expect(s.observer.muted).toBe(true);
    s = reduceSession(s, { kind: "explain/requested", path: "a.ts", selectedText: "x" });
    s = reduceSession(s, env("explain:response", { path: "a.ts", explanation: "E", keyConcepts: ["k"], analogy: null, relatedFiles: ["b.ts"], phaseConnection: null }));
    expect(s.explain).toMatchObject({ status: "ready", selectedText: "x", response: { explanation: "E" } });
    s = reduceSession(s, env("session:completed", { sessionId: "s1", knowledgeGaps: 1, kataSpecs: 1, dreyfusUpdates: 1, memoriesStored: 2 }));
    expect(s).toMatchObject({ status: "ended", completed: { memoriesStored: 2 } });
  });

  it("restores a session from session:state and forgets one the server no longer has", () => {
    let s = reduceSession(initialSession, env("session:state", { restoredState: { sessionId: "s2", issueContext: null, phases: [{ number: 1, title: "A", status: "active" }], openFiles: ["a.ts"], startedAt: "", hintLevel: "line" } }));
    expect(s).toMatchObject({ id: "s2", status: "active", hintLevel: "line", phases: [{ number: 1 }] });
    s = reduceSession(s, env("session:state", { restoredState: null }));
    expect(s.status).toBe("none");
  });
});

describe("reducePractice", () => {
  const kata = { kata: { id: "k1", title: "Reduce", description: "d", scaffoldingCode: "x", userAttempts: [] }, constraints: [{ title: "No loops", description: "", minLevel: 1 }] };
  it("loads the kata asked for and its review, ignoring others", () => {
    let s = reducePractice(initialPractice, { kind: "practice/open", kataId: "k1" });
    s = reducePractice(s, env("practice:kata_load", { ...kata, kata: { ...kata.kata, id: "other" } }));
    expect(s.kata).toBeNull();
    s = reducePractice(s, env("practice:kata_load", kata));
    expect(s.kata?.kata.title).toBe("Reduce");
    s = reducePractice(s, { kind: "practice/submit" });
    s = reducePractice(s, env("review:error", { kataId: "k1", error: "rate-limited" }));
    expect(s).toMatchObject({ submitting: false, reviewError: "rate-limited" });
    s = reducePractice(s, { kind: "practice/submit" });
    s = reducePractice(s, env("practice:solution_review", { kataId: "k1", level: 4, passed: true, feedback: "ok", unlockedConstraints: [] }));
    expect(s).toMatchObject({ submitting: false, review: { level: 4 } });
  });
});

describe("reduceApp", () => {
  it("turns nudges, errors and unanchored messages into toasts (at most 5)", () => {
    let s = reduceApp(initialApp, { kind: "server", env: env("observer:nudge", { signal: "stuck_on_file", confidence: 0.9, context: { expected_file: "src/cart.ts" } }) });
    expect(s.toasts[0]).toMatchObject({ kind: "nudge", title: "Nudge: stuck on file", text: "Look at src/cart.ts" });
    s = reduceApp(s, { kind: "server", env: env("coaching:message", { message: "m", type: "hint", anchor: { path: "a", startLine: 1 } }) });
    expect(s.toasts).toHaveLength(1);
    for (let i = 0; i < 6; i++) s = reduceApp(s, { kind: "server", env: env("connection:error", { code: "FILE_ERROR", message: `e${i}` }) });
    expect(s.toasts).toHaveLength(5);
    s = reduceApp(s, { kind: "toast/dismiss", id: s.toasts[0]!.id });
    expect(s.toasts).toHaveLength(4);
  });
  it("reads the feature flags and terminal info from connection:init", () => {
    const s = reduceApp(initialApp, { kind: "server", env: env("connection:init", { sessionId: "s", featureFlags: { model: false }, terminal: { available: true, authorized: false } }) });
    expect(s.conn).toMatchObject({ serverSession: "s", flags: { model: false }, terminal: { authorized: false } });
  });
});

describe("decorations", () => {
  it("reads editor:decorations entries of the usual shapes as highlights and drops the rest", () => {
    const s = reduceWorkspace(initialWorkspace, env("editor:decorations", { path: "a.ts", decorations: [
      { start: 2, end: 3, style: "focus", hoverText: "here" },
      { line: 7, type: "warning" },
      { range: { startLine: 9, startColumn: 1, endLine: 8, endColumn: 4 }, hoverMessage: "m" },
      { range: {} }, "junk", null,
    ] }));
    expect(s.decorations["a.ts"]).toEqual([
      { path: "a.ts", start: 2, end: 3, style: "focus", hoverText: "here" },
      { path: "a.ts", start: 7, end: 7, style: "warning" },
      { path: "a.ts", start: 9, end: 9, style: "hint", hoverText: "m" },
    ]);
    expect(reduceWorkspace(s, env("editor:clear_decorations", { path: "a.ts" })).decorations["a.ts"]).toEqual([]);
  });
});

describe("reduceWorkspace file operations and search", () => {
  const file = (path: string, content = "x") => env("fs:content", { path, language: "typescript", content, lineCount: 1, size: 1 });
  it("moves tabs with fs:renamed (edits kept), closes them with fs:deleted, and keeps the latest search only", () => {
    let s = reduceWorkspace(initialWorkspace, file("src/a.ts"));
    s = reduceWorkspace(s, file("src/b.ts"));
    s = reduceWorkspace(s, file("README.md"));
    s = reduceWorkspace(s, { kind: "tab/edit", path: "src/a.ts", content: "edited" });
    s = reduceWorkspace(s, { kind: "tab/activate", path: "src/a.ts" });
    s = reduceWorkspace(s, env("fs:renamed", { from: "src", to: "lib" }));
    expect(s.tabs.map((t) => t.path)).toEqual(["lib/a.ts", "lib/b.ts", "README.md"]);
    expect(s.active).toBe("lib/a.ts");
    expect(isDirty(s.tabs[0]!)).toBe(true);
    s = reduceWorkspace(s, env("fs:deleted", { path: "lib" }));
    expect(s.tabs.map((t) => t.path)).toEqual(["README.md"]);
    expect(s.active).toBe("README.md");

    s = reduceWorkspace(s, { kind: "tab/search", query: "old" });
    s = reduceWorkspace(s, { kind: "tab/search", query: "total" });
    s = reduceWorkspace(s, env("fs:search_result", { query: "old", hits: [], files: 1, truncated: false }));
    expect(s.search.status).toBe("loading"); // an older answer is dropped
    const r = { query: "total", hits: [{ path: "src/cart.ts", line: 3, column: 1, preview: "total" }], files: 4, truncated: false };
    s = reduceWorkspace(s, env("fs:search_result", r));
    expect(s.search).toEqual({ query: "total", status: "ready", result: r, error: null });
  });
});
