import { narrate } from "../lib/activity";
import type { ActivityItem, Phase } from "../state/session";

const LABELS: Record<string, string> = {
  decompose_problem: "Decomposing the problem",
  map_conventional_approaches: "Mapping the obvious approaches",
  extract_hidden_axioms: "Extracting hidden axioms",
  generate_premise: "Generating a premise",
  mutate_premise: "Mutating a premise",
  cross_pollinate: "Cross-pollinating premises",
  challenge_axiom: "Challenging an axiom",
  import_foreign_domain: "Importing a foreign domain",
  obviousness_test: "Testing obviousness",
  invert_problem: "Inverting the problem",
  ask_user: "Preparing a question",
  present_round: "Presenting the round",
  generate_final_spec: "Writing the final spec",
  store_premise: "Storing a premise",
  query_premises: "Querying past premises",
  get_negative_context: "Reviewing low-scored premises",
  get_context_usage: "Checking context usage",
  web_search: "Searching the web",
};

/** toolLabel returns the human label of a tool name. */
export function toolLabel(tool: string): string {
  return LABELS[tool] ?? tool;
}

interface Props {
  phase: Phase;
  agentText: string[];
  activity: ActivityItem[];
  /** Recent tool failures (not guardrail bounces), shown apart from the steps so they stay visible. */
  toolErrors?: ActivityItem[];
}

/**
 * AgentActivityIndicator shows the streaming agent text and what the agent is doing:
 * tool calls and guardrail bounces as collapsed progress steps; only tool failures look like errors.
 */
export function AgentActivityIndicator({ phase, agentText, activity, toolErrors = [] }: Props) {
  const working = phase === "streaming";
  const steps = narrate(activity, toolLabel);
  const bounces = steps.filter((s) => s.kind === "bounce").length;
  const last = steps.at(-1);
  return (
    <section aria-label="Agent activity" className="space-y-3 rounded-2xl border border-gray-200 bg-white p-4">
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-gray-700">
        {working && <span aria-hidden="true" className="inline-block h-3 w-3 animate-pulse rounded-full bg-blue-500" />}
        {working ? "GhostPath is working…" : phase === "awaiting" ? "Waiting for you" : phase === "failed" ? "Stopped" : phase === "finished" ? "Done: the spec is below" : "Idle"}
      </p>
      {working && last && <p className="text-sm text-gray-500">{last.text}</p>}
      <div aria-live="polite" aria-label="Agent messages" className="space-y-2">
        {agentText.map((t, i) => (
          <p key={i} className="whitespace-pre-line text-gray-800">
            {t}
          </p>
        ))}
      </div>
      {steps.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer text-gray-600">
            What the agent did ({steps.length} step{steps.length === 1 ? "" : "s"}
            {bounces > 0 ? `, ${bounces} self-correction${bounces === 1 ? "" : "s"}` : ""})
          </summary>
          <ol className="mt-2 space-y-1" aria-label="Agent steps">
            {steps.map((s) => (
              <li key={s.seq} className="text-gray-600">
                <span aria-hidden="true">{s.kind === "bounce" ? "↺ " : "• "}</span>
                <span className={s.kind === "bounce" ? "text-gray-700" : "font-medium"}>{s.text}</span>
                <span className="ml-1 font-mono text-xs text-gray-400">{s.detail}</span>
              </li>
            ))}
          </ol>
        </details>
      )}
      {toolErrors.length > 0 && (
        <div className="rounded-lg bg-red-50 p-3 text-sm">
          <p className="font-medium text-red-900">Tool failures</p>
          <ul aria-label="Tool failures" className="mt-1 space-y-1 text-red-900">
            {toolErrors.map((a) => (
              <li key={a.seq}>
                <span className="font-mono text-xs">{a.tool}</span> <span className="font-mono">{a.code}</span>: {a.text}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
