// The lineage graph of a session: premises as nodes (rounds as columns), "evolved from" and
// "combined from" as edges. Pure layout, so it is tested without a browser.

import type { Round } from "../state/session";

export const COL_W = 240;
export const NODE_W = 200;
export const NODE_H = 56;
export const ROW_H = 76;
export const PAD = 16;
export const HEAD_H = 28;

/** LineageNode is one premise placed in its round's column. */
export interface LineageNode {
  id: string;
  round: number;
  title: string;
  score: number | null;
  winner: boolean;
  x: number;
  y: number;
}

/** LineageEdge links a parent premise to the premise it led to. */
export interface LineageEdge {
  from: string;
  to: string;
  kind: "evolved" | "combined";
}

export interface LineageLayout {
  nodes: LineageNode[];
  edges: LineageEdge[];
  /** Column x and label of each round, left to right. */
  columns: { round: number; x: number }[];
  width: number;
  height: number;
}

/**
 * layoutLineage places each round in a column (oldest left) and each premise in a row,
 * and links a premise to its parent: the latest earlier premise whose title is its
 * source_title (evolved) or primary_title (combined). Unknown parents draw no edge.
 */
export function layoutLineage(rounds: Round[]): LineageLayout {
  const nodes: LineageNode[] = [];
  const edges: LineageEdge[] = [];
  const byTitle = new Map<string, string>(); // title → id of its latest occurrence so far
  const sorted = [...rounds].sort((a, b) => a.number - b.number);
  let rows = 0;
  sorted.forEach((r, col) => {
    const here: [string, string][] = [];
    r.premises.forEach((p, row) => {
      const s = r.scores[p.id]?.score ?? (typeof p.score === "number" ? p.score : null);
      nodes.push({ id: p.id, round: r.number, title: p.title, score: s, winner: r.winnerId === p.id || !!p.is_winner, x: PAD + col * COL_W, y: PAD + HEAD_H + row * ROW_H });
      const parent = p.source_title ?? p.primary_title;
      const from = parent ? byTitle.get(parent) : undefined;
      if (from) edges.push({ from, to: p.id, kind: p.source_title ? "evolved" : "combined" });
      here.push([p.title, p.id]);
    });
    for (const [t, id] of here) byTitle.set(t, id);
    rows = Math.max(rows, r.premises.length);
  });
  return {
    nodes,
    edges,
    columns: sorted.map((r, col) => ({ round: r.number, x: PAD + col * COL_W })),
    width: Math.max(1, sorted.length) * COL_W - (COL_W - NODE_W) + 2 * PAD,
    height: PAD * 2 + HEAD_H + Math.max(1, rows) * ROW_H - (ROW_H - NODE_H),
  };
}

/** shorten cuts a title to fit a node. */
export function shorten(t: string, max = 30): string {
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}
