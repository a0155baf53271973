import type { ContextUsage } from "../types";

/** ContextMeter shows how much of the model's context window the session has used. */
export function ContextMeter({ usage }: { usage: ContextUsage | null }) {
  if (!usage) return null;
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
        aria-valuetext={`${pct.toFixed(2)}% of the context window used, about ${usage.estimated_rounds_left} rounds left`}
        className="h-2 w-full overflow-hidden rounded-full bg-gray-200"
      >
        <div className={`h-full ${color}`} style={{ width: `${pct}%` }} />
      </div>
      <p>About {usage.estimated_rounds_left.toLocaleString("en-US")} rounds left</p>
    </div>
  );
}
