import { describe, expect, it } from "vitest";
import type { Round } from "../state/session";
import { COL_W, crossings, LABEL_W, layoutLineage, NODE_H, NODE_W, PAD, ROW_H, shorten } from "./lineage";

const p = (id: string, title: string, extra: object = {}) => ({ id, title, body: "", ...extra });

const two: Round[] = [
  { number: 1, premises: [p("a", "Alpha"), p("b", "Beta"), p("c", "Gamma")], scores: { a: { score: 8.5 }, b: { score: 3 } } },
  {
    number: 2,
    premises: [p("d", "Alpha prime", { source_title: "Alpha" }), p("e", "Beta+Gamma", { primary_title: "Beta" }), p("f", "Fresh")],
    scores: { d: { score: 9.9 } },
    winnerId: "d",
  },
];

describe("layoutLineage", () => {
  it("puts rounds in rows (oldest on top) and premises in columns, with scores and the winner", () => {
    const l = layoutLineage(two);
    expect(l.rows).toEqual([{ round: 1, y: PAD }, { round: 2, y: PAD + ROW_H }]);
    const d = l.nodes.find((n) => n.id === "d")!;
    expect(d).toMatchObject({ round: 2, score: 9.9, winner: true, x: PAD + LABEL_W, y: PAD + ROW_H });
    expect(l.nodes.find((n) => n.id === "c")).toMatchObject({ score: null, winner: false, x: l.nodes[0]!.x + 2 * COL_W, y: PAD });
    expect(l.nodes.filter((n) => n.winner)).toHaveLength(1);
  });

  it("links evolved and combined premises to their latest earlier namesake (trimmed, any case)", () => {
    const three = [...two, { number: 3, premises: [p("g", "Alpha again", { source_title: " alpha PRIME " }), p("h", "Orphan", { source_title: "Nobody" })], scores: {} }];
    expect(layoutLineage(three).edges).toEqual([
      { from: "a", to: "d", kind: "evolved" },
      { from: "b", to: "e", kind: "combined" },
      { from: "d", to: "g", kind: "evolved" },
    ]);
  });

  it("stays within its bounds at 2 and at 10 rounds, and ten rounds are no wider than two", () => {
    for (const n of [2, 10]) {
      const rounds: Round[] = Array.from({ length: n }, (_, i) => ({
        number: i + 1,
        premises: [0, 1, 2].map((k) => p(`${i}-${k}`, `P${i}-${k}`, i > 0 ? { source_title: `P${i - 1}-${k}` } : {})),
        scores: {},
      }));
      const l = layoutLineage(rounds);
      expect(l.nodes).toHaveLength(3 * n);
      expect(l.edges).toHaveLength(3 * (n - 1));
      for (const node of l.nodes) {
        expect(node.x + NODE_W).toBeLessThanOrEqual(l.width - PAD);
        expect(node.y + NODE_H).toBeLessThanOrEqual(l.height - PAD);
      }
      expect(l.width).toBe(PAD * 2 + LABEL_W + 2 * COL_W + NODE_W);
      expect(l.width).toBeLessThanOrEqual(768); // one desktop column of the app: no scrolling sideways
      expect(l.height).toBe(PAD * 2 + (n - 1) * ROW_H + NODE_H);
    }
  });

  it("sorts rounds by number and handles none", () => {
    expect(layoutLineage([two[1]!, two[0]!]).rows.map((r) => r.round)).toEqual([1, 2]);
    expect(layoutLineage([]).nodes).toEqual([]);
    expect(shorten("x".repeat(40))).toHaveLength(30);
  });
});

describe("layoutLineage with every parent (issue 28)", () => {
  it("draws every parent of a combined premise, from the server's parents or its titles", () => {
    const byServer: Round[] = [
      { number: 1, premises: [p("a", "A"), p("b", "B"), p("c", "C")], scores: {} },
      {
        number: 2,
        premises: [
          p("x", "X", {
            primary_title: "A",
            parents: [
              { id: "a", title: "A", round_number: 1, relation: "combined" },
              { id: "c", title: "C", round_number: 1, relation: "combined" },
            ],
          }),
        ],
        scores: {},
      },
    ];
    expect(layoutLineage(byServer).edges).toEqual([
      { from: "a", to: "x", kind: "combined" },
      { from: "c", to: "x", kind: "combined" },
    ]);
    const byTitles: Round[] = [byServer[0]!, { number: 2, premises: [p("x", "X", { primary_title: "A", secondary_titles: ["c"] })], scores: {} }];
    expect(layoutLineage(byTitles).edges).toEqual(layoutLineage(byServer).edges);
  });

  it("orders a row by the barycenter of its parents, so edges do not cross", () => {
    const crossed: Round[] = [
      { number: 1, premises: [p("a", "A"), p("b", "B"), p("c", "C")], scores: {} },
      {
        number: 2,
        premises: [p("x", "X", { source_title: "C" }), p("y", "Y", { source_title: "B" }), p("z", "Z", { source_title: "A" })],
        scores: {},
      },
    ];
    const l = layoutLineage(crossed);
    expect(crossings(l)).toBe(0);
    expect(l.nodes.filter((n) => n.round === 2).map((n) => n.id)).toEqual(["z", "y", "x"]);
  });
});
