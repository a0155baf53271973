import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AgentActivityIndicator, toolLabel } from "./AgentActivityIndicator";
import { ContextMeter } from "./ContextMeter";

describe("AgentActivityIndicator", () => {
  it("streams agent text in a live region and narrates calls and guardrail bounces as collapsed steps", () => {
    render(
      <AgentActivityIndicator
        phase="streaming"
        agentText={["Decomposing your problem…"]}
        activity={[
          { seq: 1, kind: "call", tool: "extract_hidden_axioms", text: "" },
          { seq: 2, kind: "call", tool: "generate_premise", text: "" },
          { seq: 3, kind: "error", tool: "generate_premise", code: "GATES_NOT_SATISFIED", text: "Missing gates", guardrail: true },
        ]}
      />,
    );
    expect(screen.getByRole("status")).toHaveTextContent("GhostPath is working…");
    const live = screen.getByLabelText("Agent messages");
    expect(live).toHaveAttribute("aria-live", "polite");
    expect(live).toHaveTextContent("Decomposing your problem…");
    const steps = screen.getByRole("list", { name: "Agent steps", hidden: true });
    expect(steps.closest("details")).not.toHaveAttribute("open");
    expect(steps).toHaveTextContent("Extracting hidden axioms");
    expect(steps).toHaveTextContent("Generating a premise: analysis gates not done yet, doing them first");
    expect(screen.getByText(/2 steps, 1 self-correction/)).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Tool failures" })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows tool failures (not bounces) as errors", () => {
    const failure = { seq: 2, kind: "error" as const, tool: "store_premise", code: "DATABASE_ERROR", text: "disk full", guardrail: false };
    render(<AgentActivityIndicator phase="streaming" agentText={[]} activity={[failure]} toolErrors={[failure]} />);
    expect(screen.getByRole("list", { name: "Tool failures" })).toHaveTextContent("store_premise DATABASE_ERROR: disk full");
  });

  it("says a finished session is done, not idle", () => {
    render(<AgentActivityIndicator phase="finished" agentText={["Excellent choice!"]} activity={[]} toolErrors={[]} />);
    expect(screen.getByText("Done: the spec is below")).toBeInTheDocument();
    expect(screen.queryByText("Idle")).toBeNull();
  });

  it("labels unknown tools by name", () => expect(toolLabel("new_tool")).toBe("new_tool"));
});

describe("ContextMeter", () => {
  it("shows context_usage as a meter", () => {
    render(
      <ContextMeter
        usage={{ tokens_used: 250_000, tokens_limit: 1_000_000, tokens_remaining: 750_000, usage_percentage: 25, estimated_rounds_left: 3 }}
      />,
    );
    const meter = screen.getByRole("meter", { name: "Context used" });
    expect(meter).toHaveAttribute("aria-valuenow", "25");
    expect(screen.getByText("250,000 / 1,000,000 tokens (25.00%)")).toBeInTheDocument();
    expect(screen.getByText("About 3 rounds left")).toBeInTheDocument();
  });

  it("shows the smoothed rounds-left estimate, explained on hover", () => {
    render(
      <ContextMeter
        usage={{ tokens_used: 10, tokens_limit: 1_000_000, tokens_remaining: 999_990, usage_percentage: 0, estimated_rounds_left: 832 }}
        roundsLeft={81.6}
      />,
    );
    const left = screen.getByText("About 80 rounds left");
    expect(left).toHaveAttribute("title", expect.stringContaining("averaged over the last rounds"));
    expect(left).toHaveAccessibleDescription(expect.stringContaining("tokens recent rounds used"));
  });

  it("renders nothing before the first context_usage", () => {
    const { container } = render(<ContextMeter usage={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
