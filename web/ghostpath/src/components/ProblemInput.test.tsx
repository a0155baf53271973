import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ProblemInput, problemStatus } from "./ProblemInput";

describe("problemStatus", () => {
  it.each([
    ["", 0, false],
    ["123456789", 9, false],
    ["   123456789   ", 9, false],
    ["1234567890", 10, true],
    ["  1234567890\n", 10, true],
    ["x".repeat(10_000), 10_000, true],
    ["x".repeat(10_001), 10_001, false],
    [" ".repeat(50) + "x".repeat(10_000) + " ".repeat(50), 10_000, true],
  ])("%#: length %i ok %s", (text, length, ok) => {
    const got = problemStatus(text);
    expect(got.length).toBe(length);
    expect(got.ok).toBe(ok);
  });
});

describe("ProblemInput", () => {
  it("counts trimmed characters live and enables submit between 10 and 10,000", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ProblemInput onSubmit={onSubmit} />);
    const box = screen.getByLabelText("What problem do you want to solve?");
    const button = screen.getByRole("button", { name: "Start exploring" });
    expect(button).toBeDisabled();

    await user.type(box, "  too short");
    expect(screen.getByText("9 / 10,000 characters")).toBeTruthy();
    expect(screen.getByText("At least 10 characters (1 more).")).toBeTruthy();
    expect(button).toBeDisabled();

    await user.type(box, "!");
    expect(screen.getByText("10 / 10,000 characters")).toBeTruthy();
    expect(button).toBeEnabled();
    await user.click(button);
    expect(onSubmit).toHaveBeenCalledWith("too short!");
  });

  it("refuses more than 10,000 characters and says how many too many", () => {
    const onSubmit = vi.fn();
    render(<ProblemInput onSubmit={onSubmit} />);
    const box = screen.getByLabelText("What problem do you want to solve?");
    fireEvent.change(box, { target: { value: "y".repeat(10_003) } });
    expect(screen.getByText("10,003 / 10,000 characters")).toBeTruthy();
    expect(screen.getByText("At most 10,000 characters (3 too many).")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Start exploring" })).toBeDisabled();
    fireEvent.submit(box.closest("form")!);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(box.getAttribute("aria-invalid")).toBe("true");
  });

  it("shows the server's error", () => {
    render(<ProblemInput onSubmit={() => {}} error="problem: too short" />);
    expect(screen.getByRole("alert").textContent).toBe("problem: too short");
  });
});
