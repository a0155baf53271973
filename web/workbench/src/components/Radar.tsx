import type { DreyfusEntry } from "../protocol/types";

/** STAGES are the Dreyfus stages, lowest first. */
export const STAGES = ["novice", "advanced_beginner", "competent", "proficient", "expert"] as const;

/** stageLevel is a stage's rank 1..5 (unknown stages count 1). */
export function stageLevel(stage: string): number {
  const i = STAGES.indexOf(stage.toLowerCase().replace(/[\s-]+/g, "_") as (typeof STAGES)[number]);
  return i < 0 ? 1 : i + 1;
}

export const stageLabel = (s: string) => s.replace(/_/g, " ");

/** Radar draws the Dreyfus stage of each skill area as a radar chart (SVG, no library). */
export function Radar({ entries, size = 260 }: { entries: DreyfusEntry[]; size?: number }) {
  const c = size / 2;
  const r = c - 48;
  const n = Math.max(entries.length, 3);
  const pt = (i: number, level: number) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const d = (r * level) / STAGES.length;
    return [c + d * Math.cos(a), c + d * Math.sin(a)] as const;
  };
  const ring = (level: number) => Array.from({ length: n }, (_, i) => pt(i, level).join(",")).join(" ");
  const shape = entries.map((e, i) => pt(i, stageLevel(e.stage)).join(",")).join(" ");
  return (
    <svg role="img" aria-label="Dreyfus stages by skill area" viewBox={`0 0 ${size} ${size}`} className="h-64 w-64">
      {STAGES.map((_, k) => (
        <polygon key={k} points={ring(k + 1)} fill="none" stroke="#e5e7eb" />
      ))}
      {Array.from({ length: n }, (_, i) => {
        const [x, y] = pt(i, STAGES.length);
        return <line key={i} x1={c} y1={c} x2={x} y2={y} stroke="#e5e7eb" />;
      })}
      {entries.length >= 3 && <polygon points={shape} fill="rgba(79,70,229,0.25)" stroke="#4f46e5" strokeWidth={2} />}
      {entries.map((e, i) => {
        const [x, y] = pt(i, stageLevel(e.stage));
        return <circle key={e.skillArea} cx={x} cy={y} r={5} fill="#4f46e5" />;
      })}
      {entries.map((e, i) => {
        const [x, y] = pt(i, STAGES.length + 0.9);
        return (
          <text key={e.skillArea} x={x} y={y} fontSize="10" textAnchor="middle" dominantBaseline="middle" fill="#374151">
            {e.skillArea} ({stageLabel(e.stage)})
          </text>
        );
      })}
    </svg>
  );
}
