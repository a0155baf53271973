import type { DashboardState, Envelope, IssueSuggestion, Period, Recommendation } from "../protocol/types";

/** Loadable is a part of the dashboard that arrives later than dashboard:state. */
export type Loadable<T> =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ready"; data: T }
  | { status: "error"; error: string };

export interface DashboardSlice {
  period: Period;
  state: DashboardState | null;
  issues: Loadable<IssueSuggestion[]>;
  materials: Loadable<Recommendation[]>;
}

export const initialDashboard: DashboardSlice = {
  period: "all",
  state: null,
  issues: { status: "idle" },
  materials: { status: "idle" },
};

/** DashboardAction is what the UI itself does to the dashboard. */
export type DashboardAction =
  | { kind: "dashboard/requested"; period: Period }
  | { kind: "dashboard/issues_requested" }
  | { kind: "dashboard/materials_requested" };

/**
 * reduceDashboard applies one server message (or a local request) to the
 * dashboard: dashboard:state renders at once; issues and materials fill in
 * when they arrive and keep their error until the next request.
 */
export function reduceDashboard(s: DashboardSlice, a: Envelope | DashboardAction): DashboardSlice {
  if ("kind" in a) {
    if (a.kind === "dashboard/requested")
      return { ...s, period: a.period, issues: { status: "loading" }, materials: { status: "loading" } };
    if (a.kind === "dashboard/materials_requested") return { ...s, materials: { status: "loading" } };
    return { ...s, issues: { status: "loading" } };
  }
  const p = a.payload as Record<string, unknown>;
  switch (a.type) {
    case "dashboard:state": {
      const state = a.payload as DashboardState;
      // Materials are only sent when there are open knowledge gaps.
      const open = state.stats.knowledgeGapsIdentified - state.stats.knowledgeGapsAddressed;
      const materials = s.materials.status === "loading" && open <= 0 ? { status: "idle" as const } : s.materials;
      return { ...s, state, period: (state.stats.period as Period) || s.period, materials };
    }
    case "dashboard:issues":
      return { ...s, issues: { status: "ready", data: (p.issues as IssueSuggestion[]) ?? [] } };
    case "dashboard:issues_error":
      return { ...s, issues: { status: "error", error: String(p.error ?? "unknown error") } };
    case "dashboard:materials":
      return { ...s, materials: { status: "ready", data: (p.recommendations as Recommendation[]) ?? [] } };
    case "dashboard:materials_error":
      return { ...s, materials: { status: "error", error: String(p.error ?? "unknown error") } };
  }
  return s;
}
