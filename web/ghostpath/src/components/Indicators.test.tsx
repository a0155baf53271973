import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AgentActivityIndicator, toolLabel } from "./AgentActivityIndicator";
import { ContextMeter } from "./ContextMeter";

describe("AgentActivityIndicator", () => {
  it("streams agent text in a live region and lists tool calls and errors", () => {
    render(
      <AgentActivityIndicator
        phase="streaming"
        agentText={["Decomposing your problem…"]}
        activity={[
          { seq: 1, kind: "call", tool: "extract_hidden_axioms", text: "" },
          { seq: 2, kind: "error", tool: "generate_premise", code: "GATES_NOT_SATISFIED", text: "Missing gates" },
        ]}
        toolErrors={[{ seq: 2, kind: "error", tool: "generate_premise", code: "GATES_NOT_SATISFIED", text: "Missing gates" }]}
      />,
    );
    expect(screen.getByRole("status")).toHaveTextContent("GhostPath is working…");
    const live = screen.getByLabelText("Agent messages");
    expect(live).toHaveAttribute("aria-live", "polite");
    expect(live).toHaveTextContent("Decomposing your problem…");
    expect(screen.getByText("Extracting hidden axioms")).toBeInTheDocument();
    expect(screen.getAllByText("GATES_NOT_SATISFIED")).toHaveLength(2);
    expect(screen.getByRole("list", { name: "Tool errors" })).toHaveTextContent("generate_premise GATES_NOT_SATISFIED: Missing gates");
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

  it("renders nothing before the first context_usage", () => {
    const { container } = render(<ContextMeter usage={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});
