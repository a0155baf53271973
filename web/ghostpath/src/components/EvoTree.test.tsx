import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Round } from "../state/session";
import { EvoTree, buildEvolution } from "./EvoTree";

const rounds: Round[] = [
  {
    number: 1,
    premises: [
      { id: "a", title: "Tides", body: "", premise_type: "initial" },
      { id: "b", title: "Bells", body: "", premise_type: "initial" },
      { id: "c", title: "Ants", body: "", premise_type: "initial" },
    ],
    scores: { a: { score: 8.5, comment: "love it" }, b: { score: 3 }, c: { score: 5 } },
  },
  {
    number: 2,
    premises: [
      { id: "d", title: "Tidal calendar", body: "", premise_type: "conservative", source_title: "Tides" },
      { id: "e", title: "Ant bells", body: "", premise_type: "combination", primary_title: "ants" },
      { id: "f", title: "Moon", body: "", premise_type: "radical", source_title: "Unknown" },
    ],
    scores: {},
    winnerId: "d",
  },
];

describe("buildEvolution", () => {
  it("links premises to their parents by title and marks best and winner", () => {
    const tree = buildEvolution(rounds);
    expect(tree[0]!.map((n) => [n.id, n.best, n.winner])).toEqual([
      ["a", true, false],
      ["b", false, false],
      ["c", false, false],
    ]);
    expect(tree[1]!.map((n) => n.parents[0]?.id)).toEqual(["a", "c", undefined]);
    expect(tree[1]!.map((n) => n.parents[0]?.kind)).toEqual(["evolved", "combined", undefined]);
    expect(tree[1]![0]!.winner).toBe(true);
    expect(tree[1]!.every((n) => !n.best)).toBe(true);
  });
});

describe("EvoTree", () => {
  it("draws rounds, premises, scores, comments, lineage and the winner", () => {
    render(<EvoTree rounds={rounds} />);
    const tree = screen.getByRole("list", { name: "Evolution tree" });
    expect(within(tree).getByRole("heading", { name: "Round 1" })).toBeInTheDocument();
    expect(within(tree).getByRole("heading", { name: "Round 2" })).toBeInTheDocument();
    expect(screen.getByLabelText("score 8.5 of 10")).toBeInTheDocument();
    expect(screen.getByText("“love it”")).toBeInTheDocument();
    expect(screen.getByText("★ your winner").closest("li")!.textContent).toContain("Tidal calendar");
    expect(screen.getByRole("link", { name: "Tides" })).toHaveAttribute("href", "#premise-a");
    expect(screen.getByRole("link", { name: "Tides" }).parentElement).toHaveTextContent(/^evolved from Tides \(round 1\)$/);
    expect(screen.getByRole("link", { name: "Ants" }).parentElement).toHaveTextContent(/^combined from Ants \(round 1\)$/);
    expect(screen.getAllByText("not scored")).toHaveLength(3);
  });

  it("says when there are no rounds", () => {
    render(<EvoTree rounds={[]} />);
    expect(screen.getByText("No rounds yet.")).toBeInTheDocument();
  });
});
