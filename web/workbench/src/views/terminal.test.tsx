import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TerminalInfo } from "../state/app";

// xterm.js needs a real canvas; the panel's contract with it is onData,
// onResize and open/dispose, which this stand-in records.
const terms: FakeTerm[] = [];
class FakeTerm {
  cols = 80;
  rows = 24;
  resizeCb: (s: { cols: number; rows: number }) => void = () => {};
  constructor() { terms.push(this); }
  loadAddon() {}
  open() {}
  write() {}
  dispose() {}
  onData() { return { dispose() {} }; }
  onResize(cb: (s: { cols: number; rows: number }) => void) { this.resizeCb = cb; return { dispose() {} }; }
}
vi.mock("@xterm/xterm", () => ({ Terminal: FakeTerm }));
vi.mock("@xterm/addon-fit", () => ({ FitAddon: class { fit() {} } }));
vi.mock("@xterm/xterm/css/xterm.css", () => ({}));

class FakeSocket {
  static OPEN = 1;
  static last: FakeSocket;
  readyState = 0;
  sent: string[] = [];
  binaryType = "";
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) { FakeSocket.last = this; }
  send(m: string) { this.sent.push(m); }
  close() { this.readyState = 3; }
}

const { default: TerminalPanel } = await import("./TerminalPanel");
const info = (claudeOnPath: boolean): TerminalInfo =>
  ({ available: true, authorized: true, claudeOnPath, claudeInstall: "npm install -g @anthropic-ai/claude-code", shell: "/bin/bash" });

describe("TerminalPanel", () => {
  beforeEach(() => {
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("ResizeObserver", class { observe() {} disconnect() {} });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("types claude into the shell with Start Claude Code, and resizes the PTY with the panel", () => {
    render(<TerminalPanel info={info(true)} />);
    const ws = FakeSocket.last;
    expect(ws.url).toMatch(/\/pty\?cols=80&rows=24$/);
    const start = screen.getByRole("button", { name: "Start Claude Code" });
    expect(start).toBeDisabled();
    act(() => { ws.readyState = FakeSocket.OPEN; ws.onopen?.(); });
    fireEvent.click(start);
    act(() => terms[terms.length - 1]!.resizeCb({ cols: 120, rows: 40 }));
    expect(ws.sent.map((m) => JSON.parse(m))).toEqual([
      { type: "input", data: "claude\r" },
      { type: "resize", cols: 120, rows: 40 },
    ]);
  });

  it("says how to install Claude Code when it is not on PATH", () => {
    render(<TerminalPanel info={info(false)} />);
    expect(screen.queryByRole("button", { name: "Start Claude Code" })).toBeNull();
    expect(screen.getByText(/Claude Code is not installed/)).toHaveTextContent("npm install -g @anthropic-ai/claude-code");
  });

  it("asks for the printed URL without the terminal key, and opens no socket", () => {
    const before = FakeSocket.last;
    render(<TerminalPanel info={{ ...info(true), authorized: false }} />);
    expect(screen.getByText(/Open the workbench URL printed by/)).toBeInTheDocument();
    expect(FakeSocket.last).toBe(before);
  });
});
