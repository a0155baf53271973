import { ROUNDS_LEFT_HELP, roundsLeftLabel, smoothRoundsLeft } from "../lib/roundsLeft";
import type { ContextUsage } from "../types";

/**
 * ContextMeter shows how much of the model's context window the session has used and
 * the smoothed rounds-left estimate (roundsLeft; the raw server figure when not given),
 * explained on hover.
 */
export function ContextMeter({ usage, roundsLeft }: { usage: ContextUsage | null; roundsLeft?: number | null }) {
  if (!usage) return null;
  const left = roundsLeftLabel(roundsLeft ?? smoothRoundsLeft(null, usage.estimated_rounds_left));
  const pct = Math.min(100, Math.max(0, usage.usage_percentage));
  const color = pct > 80 ? "bg-red-500" : pct > 50 ? "bg-amber-500" : "bg-green-500";
  return (
    <div className="space-y-1 text-xs text-gray-600">
      <div className="flex justify-between gap-2">
        <span id="context-meter-label">Context used</span>
        <span>
          {usage.tokens_used.toLocaleString("en-US")} / {usage.tokens_limit.toLocaleString("en-US")} tokens ({pct.toFixed(2)}%)
        </span>
      </div>
      <div
        role="meter"
        aria-labelledby="context-meter-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${pct.toFixed(2)}% of the context window used, ${left.toLowerCase()}`}
        className="h-2 w-full overflow-hidden rounded-full bg-gray-200"
      >
        <div className={`h-full ${color}`} style={{ width: `${pct}%` }} />
      </div>
      <p>
        <span title={ROUNDS_LEFT_HELP} aria-describedby="rounds-left-help" tabIndex={0} className="cursor-help underline decoration-dotted">
          {left}
        </span>
        <span id="rounds-left-help" hidden>
          {ROUNDS_LEFT_HELP}
        </span>
      </p>
    </div>
  );
}
