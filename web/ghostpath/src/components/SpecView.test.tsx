import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SpecView } from "./SpecView";

describe("SpecView", () => {
  it("loads the Markdown renderer on demand and renders the spec with it, raw HTML as text", async () => {
    const spec = "# Spec: X\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>alert('x')</script>\n";
    const { container } = render(<SpecView spec={spec} downloadUrl="/api/v1/sessions/s/spec" sessionId="s" />);
    const article = screen.getByRole("article", { name: "Spec content" });
    expect(article).toHaveTextContent("# Spec: X"); // readable at once, before the renderer arrives
    // The first import of the renderer is transformed on the fly: give it time on a loaded machine.
    expect(await screen.findByRole("heading", { level: 1, name: "Spec: X" }, { timeout: 20_000 })).toBeInTheDocument();
    expect(container.querySelector("table")).not.toBeNull();
    expect(container.querySelector("script")).toBeNull();
    expect(article).toHaveTextContent("<script>alert('x')</script>");
    expect(screen.getByRole("link", { name: "Download spec (.md)" })).toHaveAttribute("download", "ghostpath-spec-s.md");
  });
});
