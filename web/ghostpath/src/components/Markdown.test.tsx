import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Markdown, safeHref } from "./Markdown";

const SPEC = `# Spec: Tidal Scheduling

## 1. Executive Summary
The **winning premise** is *simple*: schedule by ~~calendar~~ tide.

- first point
- second with \`code\`
  continued line
  - nested item
1. step one
2. step two

> quoted insight

\`\`\`go
fmt.Println("<b>not bold</b>")
\`\`\`

| Metric | Target |
|:-------|-------:|
| latency | 10 ms |

---
See [the docs](https://example.com/docs) or <https://example.org>.
`;

describe("Markdown", () => {
  it("renders headings, emphasis, lists, quotes, code and tables", () => {
    const { container } = render(<Markdown source={SPEC} />);
    expect(screen.getByRole("heading", { level: 1, name: "Spec: Tidal Scheduling" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2, name: "1. Executive Summary" })).toBeInTheDocument();
    expect(container.querySelector("strong")?.textContent).toBe("winning premise");
    expect(container.querySelector("em")?.textContent).toBe("simple");
    expect(container.querySelector("del")?.textContent).toBe("calendar");
    const ul = container.querySelector("ul")!;
    expect(ul.children).toHaveLength(2);
    expect(ul.querySelector("li:nth-child(2) ul li")?.textContent).toBe("nested item");
    expect(ul.querySelector("li:nth-child(2) code")?.textContent).toBe("code");
    expect(container.querySelectorAll("ol > li")).toHaveLength(2);
    expect(container.querySelector("blockquote")?.textContent?.trim()).toBe("quoted insight");
    expect(container.querySelector("pre code")?.textContent).toBe('fmt.Println("<b>not bold</b>")\n');
    expect(container.querySelector("pre code")?.getAttribute("data-lang")).toBe("go");
    expect(screen.getByRole("columnheader", { name: "Target" })).toHaveStyle({ textAlign: "right" });
    expect(screen.getByRole("cell", { name: "latency" })).toBeInTheDocument();
    expect(container.querySelector("hr")).not.toBeNull();
    expect(screen.getByRole("link", { name: "the docs" })).toHaveAttribute("href", "https://example.com/docs");
    expect(screen.getByRole("link", { name: "https://example.org" })).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("never injects raw HTML", () => {
    const evil = `<script>window.pwned=1</script>\n\n<img src=x onerror="alert(1)">\n\n**<iframe src="https://evil"></iframe>**`;
    const { container } = render(<Markdown source={evil} />);
    expect(container.querySelector("script, img, iframe")).toBeNull();
    expect(container.textContent).toContain("<script>window.pwned=1</script>");
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it("drops unsafe link targets but keeps their text", () => {
    const { container } = render(
      <Markdown source={"[a](javascript:alert(1)) [b](java\u0000script:alert(1)) [c](data:text/html,x) [d](/ok) [e](#top) [f](mailto:x@y.z)"} />,
    );
    const hrefs = [...container.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["/ok", "#top", "mailto:x@y.z"]);
    expect(container.textContent).toContain("a b c d e f");
  });
});

describe("safeHref", () => {
  it.each([
    ["https://x.y/z", "https://x.y/z"],
    ["HTTP://X", "HTTP://X"],
    ["mailto:a@b", "mailto:a@b"],
    ["relative/path", "relative/path"],
    ["javascript:alert(1)", null],
    [" JaVaScRiPt:alert(1)", null],
    ["java\u0000script:x", null],
    ["vbscript:x", null],
    ["data:text/html,<b>", null],
    ["", null],
  ])("%s → %s", (href, want) => expect(safeHref(href)).toBe(want));
});

describe("Markdown robustness", () => {
  it("keeps snake_case words and escaped markers literal", () => {
    const { container } = render(<Markdown source={"call get_negative_context now \\*not em\\*"} />);
    expect(container.textContent).toBe("call get_negative_context now *not em*");
    expect(container.querySelector("em")).toBeNull();
  });

  it("handles deep nesting", () => {
    expect(() => render(<Markdown source={">".repeat(500) + " deep"} />).unmount()).not.toThrow();
    expect(() => render(<Markdown source={"- ".repeat(300) + "x"} />).unmount()).not.toThrow();
  });

  it("never throws on random input (fuzz)", () => {
    const alphabet = ["#", "*", "_", "~", "`", "[", "]", "(", ")", "<", ">", "|", "-", ":", "\n", " ", "\t", "\\", "1.", "a", "é", "\r"];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 200; i++) {
      let s = "";
      const len = rand(300);
      for (let k = 0; k < len; k++) s += alphabet[rand(alphabet.length)];
      const { container, unmount } = render(<Markdown source={s} />);
      expect(container.querySelector("script, img, iframe")).toBeNull();
      unmount();
    }
  });
});
