// Agent activity as progress: tool calls and guardrail bounces narrated as steps.

import type { ActivityItem } from "../state/session";

/** BOUNCES says, for each guardrail code, what the agent learned and does next. */
const BOUNCES: Record<string, string> = {
  GATES_NOT_SATISFIED: "analysis gates not done yet, doing them first",
  TOO_OBVIOUS: "premise too obvious, regenerating",
  UNTESTED_PREMISES: "premises not checked for obviousness yet, checking",
  AXIOM_NOT_EXTRACTED: "no hidden axiom extracted yet, extracting first",
  AXIOM_NOT_CHALLENGED: "axiom not challenged yet, challenging first",
  NEGATIVE_CONTEXT_MISSING: "low-scored premises not reviewed yet, reviewing",
  INCOMPLETE_ROUND: "round not complete yet, adding premises",
  ROUND_BUFFER_FULL: "round already full, presenting it",
  FINAL_SPEC_NOT_ALLOWED: "the user has not resolved yet, continuing",
  INVALID_INDEX: "referred to a premise that does not exist, correcting",
  VALIDATION_ERROR: "tool input rejected, correcting",
  UNKNOWN_TOOL: "called an unknown tool, correcting",
};

/** REJECTION recognises a tool result that says, in words, that the agent must redo something. */
const REJECTION = /too obvious|rejected|dropped|generating a better/i;

/** Step is one narrated line of agent activity. */
export interface Step {
  seq: number;
  /** "call" is work; "bounce" is a guardrail the agent hit and corrects (the design working). */
  kind: "call" | "bounce";
  text: string;
  /** The raw tool name and error code, for the curious. */
  detail: string;
}

/** bounceText narrates a tool error as a correction ("premise too obvious, regenerating"). */
export function bounceText(code: string | undefined, message: string): string {
  const known = code ? BOUNCES[code] : undefined;
  if (known) return known;
  const m = message.trim();
  return m ? `${m.length > 120 ? m.slice(0, 120) + "…" : m}, correcting` : "tool rejected the call, correcting";
}

/**
 * narrate turns the activity list into steps: a call followed by its bounce reads
 * "Testing obviousness: premise too obvious, regenerating"; results are folded in.
 */
export function narrate(activity: ActivityItem[], label: (tool: string) => string): Step[] {
  const steps: Step[] = [];
  for (const a of activity) {
    if (a.kind === "result") {
      // Servers since issue 16 say a rejection as a sentence for people
      // ("Checked obviousness: the premise was too obvious and was dropped; …").
      const sentence = !a.text.includes("TOO_OBVIOUS") && REJECTION.test(a.text) && !/^[[{"]/.test(a.text);
      if (sentence) {
        const prev = steps.at(-1);
        const step: Step = { seq: a.seq, kind: "bounce", text: a.text, detail: prev?.kind === "call" ? prev.detail : "" };
        if (prev?.kind === "call") steps[steps.length - 1] = step;
        else steps.push(step);
        continue;
      }
      if (!a.text.includes("TOO_OBVIOUS")) continue;
    }
    if (a.kind === "call") {
      steps.push({ seq: a.seq, kind: "call", text: label(a.tool), detail: a.tool });
      continue;
    }
    const prev = steps.at(-1);
    const what = a.kind === "result" ? bounceText("TOO_OBVIOUS", "") : bounceText(a.code, a.text);
    if (prev && prev.kind === "call" && (a.tool === "" || prev.detail === a.tool)) {
      steps[steps.length - 1] = { seq: a.seq, kind: "bounce", text: `${prev.text}: ${what}`, detail: `${prev.detail} ${a.code ?? ""}`.trim() };
    } else {
      steps.push({ seq: a.seq, kind: "bounce", text: `${a.tool ? label(a.tool) + ": " : ""}${what}`, detail: `${a.tool} ${a.code ?? ""}`.trim() });
    }
  }
  return steps;
}
