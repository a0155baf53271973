import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Round } from "../state/session";
import { LineageGraph } from "./LineageGraph";

afterEach(() => vi.restoreAllMocks());

const rounds: Round[] = [
  { number: 1, premises: [{ id: "a", title: "Alpha <b>", body: "" }], scores: { a: { score: 8.5 } } },
  { number: 2, premises: [{ id: "d", title: "Alpha prime", body: "", source_title: "Alpha <b>" }], scores: { d: { score: 9.9 } }, winnerId: "d" },
];

describe("LineageGraph", () => {
  it("draws nodes with scores, the evolved edge and the winner", () => {
    const { container } = render(<LineageGraph rounds={rounds} />);
    const svg = screen.getByRole("img", { name: "Lineage graph" });
    expect(svg).toHaveTextContent("Round 1");
    expect(svg).toHaveTextContent("score 8.5");
    expect(svg).toHaveTextContent("score 9.9 · ★ winner");
    expect(container.querySelectorAll('path[data-kind="evolved"]')).toHaveLength(1);
    expect(container.querySelector('[data-winner="true"]')?.getAttribute("data-node")).toBe("d");
  });

  it("downloads the graph as an SVG file", async () => {
    let blob: Blob | null = null;
    const create = vi.fn((b: Blob) => {
      blob = b;
      return "blob:x";
    });
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    render(<LineageGraph rounds={rounds} fileName="g.svg" />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Download graph (.svg)" }));
    expect(click).toHaveBeenCalledTimes(1);
    expect(blob!.type).toBe("image/svg+xml");
    const text = await blob!.text();
    expect(text).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(text).toContain("Alpha &lt;b&gt;");
    expect(text).toContain("★ winner");
  });

  it("renders nothing without rounds", () => {
    const { container } = render(<LineageGraph rounds={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
