import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Premise } from "../types";
import { lineageOf, PremiseCard } from "./PremiseCard";

const premise: Premise = {
  id: "p1",
  title: "Tickets heal themselves",
  body: "Body",
  premise_type: "combination",
  obviousness_score: 0.25,
  cross_domain_source: "immunology",
  violated_axiom: "Humans triage tickets",
  primary_title: "Self-healing queue",
};

function card(score?: number, onScore = vi.fn()) {
  render(<PremiseCard premise={premise} index={0} score={score} comment="" onScore={onScore} onComment={() => {}} />);
  return onScore;
}

describe("PremiseCard", () => {
  it("shows premise type, obviousness score, source domain, violated axiom and lineage", () => {
    card();
    const facts = screen.getByRole("article");
    expect(facts).toHaveTextContent("combination");
    expect(facts).toHaveTextContent("Obviousness0.25 (0 = bold, 1 = obvious)");
    expect(facts).toHaveTextContent("Source domainimmunology");
    expect(facts).toHaveTextContent("Violated axiomHumans triage tickets");
    expect(facts).toHaveTextContent("LineageCombined from “Self-healing queue”");
  });

  it("starts unset: no thumb, empty number box, 'not scored yet'", () => {
    card();
    const slider = screen.getByRole("slider");
    expect(slider).toHaveAttribute("data-unset", "true");
    expect(slider.className).toContain("slider-thumb]:opacity-0");
    expect(slider).toHaveAttribute("aria-valuetext", "not scored yet");
    expect(screen.getByRole("spinbutton")).toHaveValue(null);
    expect(screen.getByText("Not scored yet")).toBeInTheDocument();
  });

  it("scores on a click where the hidden thumb sits, and shows the thumb once scored", () => {
    const onScore = card();
    fireEvent.click(screen.getByRole("slider"));
    expect(onScore).toHaveBeenCalledWith(5);
  });

  it("shows a scored slider with its thumb", () => {
    card(7.5);
    const slider = screen.getByRole("slider");
    expect(slider).not.toHaveAttribute("data-unset");
    expect(slider).toHaveAttribute("aria-valuetext", "7.5 out of 10");
  });
});

describe("lineageOf", () => {
  it("says evolved, combined or nothing", () => {
    expect(lineageOf({ id: "a", title: "t", body: "", source_title: "Old" })).toBe("Evolved from “Old”");
    expect(lineageOf({ id: "a", title: "t", body: "", primary_title: "P" })).toBe("Combined from “P”");
    expect(lineageOf({ id: "a", title: "t", body: "" })).toBeNull();
  });
});
