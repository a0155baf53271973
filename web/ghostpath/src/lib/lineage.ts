// The lineage graph of a session: premises as nodes (rounds as rows, oldest on top), "evolved
// from" and "combined from" as edges. Rounds grow downwards, so the width stays that of one
// round (three premises) and ten rounds read as well as two. Pure layout, so it is tested
// without a browser.

import type { Round } from "../state/session";

export const LABEL_W = 72;
export const COL_W = 224;
export const NODE_W = 200;
export const NODE_H = 56;
export const ROW_H = 96;
export const PAD = 16;

/** LineageNode is one premise placed in its round's row. */
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
  /** Row y and label of each round, top to bottom. */
  rows: { round: number; y: number }[];
  width: number;
  height: number;
}

/**
 * layoutLineage places each round in a row (oldest on top) and each premise in a column,
 * and links a premise to its parent: the latest earlier premise whose title (trimmed,
 * case-insensitive) is its source_title (evolved) or primary_title (combined). Unknown
 * parents draw no edge.
 */
export function layoutLineage(rounds: Round[]): LineageLayout {
  const nodes: LineageNode[] = [];
  const edges: LineageEdge[] = [];
  const byTitle = new Map<string, string>(); // title key → id of its latest occurrence so far
  const sorted = [...rounds].sort((a, b) => a.number - b.number);
  let cols = 0;
  sorted.forEach((r, row) => {
    const here: [string, string][] = [];
    r.premises.forEach((p, col) => {
      const s = r.scores[p.id]?.score ?? (typeof p.score === "number" ? p.score : null);
      nodes.push({ id: p.id, round: r.number, title: p.title, score: s, winner: r.winnerId === p.id || !!p.is_winner, x: PAD + LABEL_W + col * COL_W, y: PAD + row * ROW_H });
      const parent = p.source_title ?? p.primary_title;
      const from = parent ? byTitle.get(key(parent)) : undefined;
      if (from) edges.push({ from, to: p.id, kind: p.source_title ? "evolved" : "combined" });
      here.push([key(p.title), p.id]);
    });
    for (const [t, id] of here) byTitle.set(t, id);
    cols = Math.max(cols, r.premises.length);
  });
  return {
    nodes,
    edges,
    rows: sorted.map((r, row) => ({ round: r.number, y: PAD + row * ROW_H })),
    width: PAD * 2 + LABEL_W + Math.max(1, cols) * COL_W - (COL_W - NODE_W),
    height: PAD * 2 + Math.max(1, sorted.length) * ROW_H - (ROW_H - NODE_H),
  };
}

/** key is how titles are matched: trimmed and case-insensitive, as in EvoTree. */
function key(title: string): string {
  return title.trim().toLowerCase();
}

/** shorten cuts a title to fit a node. */
export function shorten(t: string, max = 30): string {
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}
