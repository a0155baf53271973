import { useMemo, useRef } from "react";
import { type LineageLayout, layoutLineage, NODE_H, NODE_W, shorten } from "../lib/lineage";
import type { Round } from "../state/session";

function Edges({ layout }: { layout: LineageLayout }) {
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  return (
    <g fill="none" strokeWidth={1.5}>
      {layout.edges.map((e) => {
        const a = at.get(e.from)!;
        const b = at.get(e.to)!;
        const x1 = a.x + NODE_W / 2, y1 = a.y + NODE_H, x2 = b.x + NODE_W / 2, y2 = b.y;
        const my = (y1 + y2) / 2;
        return (
          <path
            key={`${e.from}-${e.to}`}
            data-kind={e.kind}
            d={`M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}`}
            stroke={e.kind === "evolved" ? "#6366f1" : "#0d9488"}
            strokeDasharray={e.kind === "combined" ? "5 3" : undefined}
          >
            <title>{`${b.title}: ${e.kind === "evolved" ? "evolved from" : "combined from"} ${a.title}`}</title>
          </path>
        );
      })}
    </g>
  );
}

/**
 * LineageGraph draws the session's lineage as SVG (rounds as rows, premises as nodes with
 * their scores, evolved/combined edges, the winner in green) and downloads it as an .svg file.
 */
export function LineageGraph({ rounds, fileName = "lineage.svg" }: { rounds: Round[]; fileName?: string }) {
  const layout = useMemo(() => layoutLineage(rounds), [rounds]);
  const svg = useRef<SVGSVGElement>(null);
  if (layout.nodes.length === 0) return null;

  const download = () => {
    if (!svg.current) return;
    const text = new XMLSerializer().serializeToString(svg.current);
    const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = fileName;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <section aria-labelledby="lineage-h" className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="lineage-h" className="text-lg font-semibold">
          Lineage graph
        </h2>
        <button type="button" onClick={download} className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-50">
          Download graph (.svg)
        </button>
      </div>
      <p className="text-xs text-gray-500">Solid: evolved from · dashed: combined from · green: the winner</p>
      <div className="overflow-x-auto rounded-xl border border-gray-200 bg-white">
        <svg ref={svg} xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Lineage graph" width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} fontFamily="system-ui, sans-serif">
          <rect width={layout.width} height={layout.height} fill="#ffffff" />
          {layout.rows.map((r) => (
            <text key={r.round} x={16} y={r.y + NODE_H / 2 + 5} fontSize={13} fontWeight={600} fill="#374151">{`Round ${r.round}`}</text>
          ))}
          <Edges layout={layout} />
          {layout.nodes.map((n) => (
            <g key={n.id} data-node={n.id} data-winner={n.winner || undefined}>
              <rect x={n.x} y={n.y} width={NODE_W} height={NODE_H} rx={8} fill={n.winner ? "#dcfce7" : "#f9fafb"} stroke={n.winner ? "#16a34a" : "#d1d5db"} strokeWidth={n.winner ? 2 : 1} />
              <text x={n.x + 8} y={n.y + 22} fontSize={12} fill="#111827">{shorten(n.title)}</text>
              <text x={n.x + 8} y={n.y + 42} fontSize={11} fill="#6b7280">
                {`${n.score === null ? "not scored" : `score ${n.score.toFixed(1)}`}${n.winner ? " · ★ winner" : ""}`}
              </text>
              <title>{n.title}</title>
            </g>
          ))}
        </svg>
      </div>
    </section>
  );
}
