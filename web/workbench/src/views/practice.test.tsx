import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { appStore } from "../state/store";
import { bestLevel, PracticeView } from "./Practice";

vi.mock("../editor/CodeEditor", () => ({ default: () => <div data-testid="code-editor" /> }));

describe("PracticeView", () => {
  it("asks for the kata, shows which constraints are unlocked and submits the active ones", async () => {
    const store = appStore();
    const send = vi.spyOn(store.client, "send");
    render(<PracticeView kataId="k1" />);
    expect(send).toHaveBeenCalledWith("practice:open", { kataId: "k1" });
    act(() => {
      store.dispatch({ kind: "server", env: { type: "practice:kata_load", payload: {
        kata: { id: "k1", title: "Sum with quantities", description: "Write sum.", scaffoldingCode: "x", userAttempts: [{ code: "y", level: 3, passed: false }] },
        constraints: [{ title: "Use reduce", description: "", minLevel: 1 }, { title: "One line", description: "", minLevel: 7 }],
      } } });
    });
    expect(screen.getByRole("heading", { name: "Sum with quantities" })).toBeInTheDocument();
    const items = screen.getByRole("list", { name: "Constraints" }).querySelectorAll("li");
    expect([...items].map((li) => li.getAttribute("data-unlocked"))).toEqual(["true", "false"]);
    fireEvent.click(screen.getByRole("checkbox", { name: /Use reduce/ }));
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(send).toHaveBeenLastCalledWith("practice:submit_solution", { kataId: "k1", code: "x", activeConstraints: ["Use reduce"] });
    expect(screen.getByRole("button", { name: "Reviewing…" })).toBeDisabled();
    act(() => {
      store.dispatch({ kind: "server", env: { type: "practice:solution_review", payload: { kataId: "k1", correct: true, feedback: "Nice.", level: 7, passed: true, followUp: null, dreyfusSignal: "advancing", unlockedConstraints: [{ title: "One line", description: "", minLevel: 7 }] } } });
    });
    expect(screen.getByRole("region", { name: "Review" })).toHaveTextContent("Unlocked: One line");
    expect(screen.getByRole("region", { name: "Attempts" })).toHaveTextContent("level 3");
  });

  it("bestLevel is the highest reviewed level", () => {
    expect(bestLevel(undefined)).toBe(0);
    expect(bestLevel([{ level: 2 }, { level: null }, { level: 5 }])).toBe(5);
  });
});
