// The lineage graph of a session: premises as nodes (rounds as rows, oldest on top), "evolved
// from" and "combined from" as edges. Rounds grow downwards, so the width stays that of one
// round (three premises) and ten rounds read as well as two. Pure layout, so it is tested
// without a browser.

import type { Round } from "../state/session";
import type { Premise } from "../types";

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
 * layoutLineage places each round in a row (oldest on top) and links every premise to all its
 * parents in earlier rounds: those the server resolved (`parents`, by id), or, from an older
 * server, the latest earlier premise whose title (trimmed, case-insensitive) is its
 * source_title (evolved) or primary_title or a secondary title (combined). Within a row, premises
 * are ordered by the barycenter of their parents' columns (a premise without parents keeps its
 * place), so edges do not cross without need. Unknown parents draw no edge.
 */
export function layoutLineage(rounds: Round[]): LineageLayout {
  const nodes: LineageNode[] = [];
  const edges: LineageEdge[] = [];
  const byTitle = new Map<string, string>(); // title key → id of its latest occurrence so far
  const column = new Map<string, number>(); // id → column of a placed premise
  const sorted = [...rounds].sort((a, b) => a.number - b.number);
  let cols = 0;
  sorted.forEach((r, row) => {
    const placed = r.premises
      .map((p, i) => {
        const links = parentLinks(p, byTitle).filter((l) => column.has(l.from));
        const bc = links.length > 0 ? links.reduce((sum, l) => sum + column.get(l.from)!, 0) / links.length : i;
        return { p, i, links, bc };
      })
      .sort((a, b) => a.bc - b.bc || a.i - b.i);
    placed.forEach(({ p, links }, col) => {
      const s = r.scores[p.id]?.score ?? (typeof p.score === "number" ? p.score : null);
      nodes.push({ id: p.id, round: r.number, title: p.title, score: s, winner: r.winnerId === p.id || !!p.is_winner, x: PAD + LABEL_W + col * COL_W, y: PAD + row * ROW_H });
      for (const l of links) edges.push({ from: l.from, to: p.id, kind: l.kind });
    });
    placed.forEach(({ p }, col) => column.set(p.id, col));
    for (const p of r.premises) byTitle.set(key(p.title), p.id);
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

/** parentLinks lists a premise's parents: the server's, else those its lineage titles name (byTitle: title key → id). */
export function parentLinks(p: Premise, byTitle: Map<string, string>): { from: string; kind: "evolved" | "combined" }[] {
  if (Array.isArray(p.parents) && p.parents.length > 0) {
    return p.parents.map((x) => ({ from: x.id, kind: x.relation === "evolved" ? "evolved" : "combined" }));
  }
  const out: { from: string; kind: "evolved" | "combined" }[] = [];
  const add = (title: string | undefined, kind: "evolved" | "combined") => {
    const from = title ? byTitle.get(key(title)) : undefined;
    if (from && !out.some((l) => l.from === from)) out.push({ from, kind });
  };
  add(p.source_title, "evolved");
  add(p.primary_title, "combined");
  for (const t of p.secondary_titles ?? []) add(t, "combined");
  return out;
}

/**
 * crossings counts pairs of edges that cross between two rows (a measure of the layout, for
 * tests): two edges between the same rows cross when their ends are in opposite orders.
 */
export function crossings(layout: LineageLayout): number {
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  const segs = layout.edges.map((e) => [at.get(e.from)!, at.get(e.to)!] as const);
  let n = 0;
  for (let i = 0; i < segs.length; i++) {
    for (let j = i + 1; j < segs.length; j++) {
      const [a1, b1] = segs[i]!;
      const [a2, b2] = segs[j]!;
      if (a1.y !== a2.y || b1.y !== b2.y) continue;
      if ((a1.x - a2.x) * (b1.x - b2.x) < 0) n++;
    }
  }
  return n;
}

/** key is how titles are matched: trimmed and case-insensitive, as in EvoTree. */
export function key(title: string): string {
  return title.trim().toLowerCase();
}

/** shorten cuts a title to fit a node. */
export function shorten(t: string, max = 30): string {
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}
