import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import "@xterm/xterm/css/xterm.css";
import { useEffect, useRef, useState } from "react";
import { wsURL } from "../protocol/client";
import type { TerminalInfo } from "../state/app";

/**
 * TerminalPanel is xterm.js attached to a shell on the server over /pty
 * (docs/workbench.md, "Terminal"): binary frames are output, JSON text frames
 * carry input, resize and exit. The PTY ends when the panel unmounts or the
 * page closes. Loaded lazily with the Work view.
 */
export default function TerminalPanel({ info }: { info: TerminalInfo | null }) {
  const host = useRef<HTMLDivElement>(null);
  const sock = useRef<WebSocket | null>(null);
  const [state, setState] = useState<"connecting" | "open" | "closed">("connecting");
  const [note, setNote] = useState("");
  const [shell, setShell] = useState(0); // bumped by "New shell"
  const usable = !!info?.available && !!info.authorized;

  useEffect(() => {
    if (!usable) return;
    setState("connecting");
    setNote("");
    const term = new Terminal({ fontSize: 13, cursorBlink: true, convertEol: false, theme: { background: "#111827" } });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current!);
    fit.fit();
    const ws = new WebSocket(wsURL(`/pty?cols=${term.cols}&rows=${term.rows}`));
    ws.binaryType = "arraybuffer";
    sock.current = ws;
    const send = (m: object) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(m));
    ws.onopen = () => setState("open");
    ws.onmessage = (ev) => {
      if (typeof ev.data !== "string") return term.write(new Uint8Array(ev.data as ArrayBuffer));
      try {
        const m = JSON.parse(ev.data) as { type: string; code?: number; message?: string };
        if (m.type === "exit") setNote(`The shell exited (${m.code ?? 0}).`);
        if (m.type === "error") setNote(m.message ?? "terminal error");
      } catch { /* not a control message */ }
    };
    ws.onclose = () => setState("closed");
    const input = term.onData((data) => send({ type: "input", data }));
    const resize = term.onResize(({ cols, rows }) => send({ type: "resize", cols, rows }));
    const ro = new ResizeObserver(() => { try { fit.fit(); } catch { /* hidden */ } });
    ro.observe(host.current!);
    const bye = () => ws.close();
    window.addEventListener("pagehide", bye);
    return () => {
      window.removeEventListener("pagehide", bye);
      ro.disconnect();
      input.dispose();
      resize.dispose();
      ws.close();
      term.dispose();
    };
  }, [usable, shell]);

  const startClaude = () => sock.current?.readyState === WebSocket.OPEN && sock.current.send(JSON.stringify({ type: "input", data: "claude\r" }));

  if (!info) return <p className="p-3 text-sm text-gray-400">Connecting…</p>;
  if (!info.available) return <p className="p-3 text-sm text-gray-400">This server has no terminal.</p>;
  if (!info.authorized)
    return <p className="p-3 text-sm text-gray-300">Open the workbench URL printed by <code>paige serve</code> (it carries the terminal key) to use the terminal.</p>;
  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-3 border-b border-gray-700 px-2 py-1 text-xs text-gray-300">
        <span>Terminal {state === "open" ? "" : `(${state})`}</span>
        {info.claudeOnPath ? (
          <button type="button" className="rounded bg-indigo-600 px-2 py-0.5 text-white disabled:opacity-50" disabled={state !== "open"} onClick={startClaude}>
            Start Claude Code
          </button>
        ) : (
          <span>Claude Code is not installed: <code>{info.claudeInstall}</code></span>
        )}
        {state === "closed" && (
          <button type="button" className="rounded border border-gray-500 px-2 py-0.5" onClick={() => setShell((n) => n + 1)}>
            New shell
          </button>
        )}
        {note && <span role="status">{note}</span>}
      </div>
      <div ref={host} data-testid="terminal" className="min-h-0 flex-1 p-1" />
    </div>
  );
}
