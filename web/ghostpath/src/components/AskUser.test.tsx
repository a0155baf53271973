import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { AskUserData } from "../types";
import { AskUser } from "./AskUser";

const data: AskUserData = {
  question: "You value speed over cost. Correct?",
  context: "Meta-analysis: you scored fast ideas higher.",
  options: [
    { label: "Yes, correct", description: "Keep pushing speed" },
    { label: "No, cost matters more" },
  ],
};

describe("AskUser", () => {
  it("shows context, question and options; submits the chosen option", async () => {
    const user = userEvent.setup();
    const onRespond = vi.fn();
    render(<AskUser data={data} onRespond={onRespond} />);
    expect(screen.getByText("Meta-analysis: you scored fast ideas higher.")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "You value speed over cost. Correct?" })).toBeInTheDocument();
    expect(screen.getByText("Keep pushing speed")).toBeInTheDocument();
    const submit = screen.getByRole("button", { name: "Submit response" });
    expect(submit).toBeDisabled();
    await user.click(screen.getByRole("radio", { name: /No, cost matters more/ }));
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(onRespond).toHaveBeenCalledWith("No, cost matters more");
  });

  it("answers with free text, trimmed, and not while it is blank", async () => {
    const user = userEvent.setup();
    const onRespond = vi.fn();
    render(<AskUser data={data} onRespond={onRespond} />);
    await user.click(screen.getByRole("radio", { name: "Type my own response…" }));
    const box = screen.getByLabelText("Your response");
    expect(box).toHaveFocus();
    const submit = screen.getByRole("button", { name: "Submit response" });
    await user.type(box, "   ");
    expect(submit).toBeDisabled();
    await user.type(box, "Both, but speed first  ");
    await user.keyboard("{Tab}{Enter}");
    expect(onRespond).toHaveBeenCalledWith("Both, but speed first");
  });

  it("hides the free-text choice when allow_free_text is false", () => {
    render(<AskUser data={{ ...data, allow_free_text: false }} onRespond={vi.fn()} />);
    expect(screen.getAllByRole("radio")).toHaveLength(2);
    expect(screen.queryByText("Type my own response…")).toBeNull();
  });

  it("can be answered with the keyboard alone", async () => {
    const user = userEvent.setup();
    const onRespond = vi.fn();
    render(<AskUser data={data} onRespond={onRespond} />);
    await user.tab();
    await user.keyboard(" ");
    expect(screen.getByRole("radio", { name: /Yes, correct/ })).toBeChecked();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("radio", { name: /No, cost matters more/ })).toBeChecked();
    await user.tab();
    await user.keyboard("{Enter}");
    expect(onRespond).toHaveBeenCalledWith("No, cost matters more");
  });
});
