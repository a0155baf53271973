// Server-sent events over fetch: GET /stream and POST /user-input both answer
// text/event-stream, and EventSource cannot POST, so one reader serves both.

import type { StreamEvent } from "../types";

const KNOWN = new Set<StreamEvent["type"]>([
  "agent_text",
  "tool_call",
  "tool_result",
  "tool_error",
  "premises",
  "ask_user",
  "final_spec",
  "context_usage",
  "error",
  "done",
  "spec_file_ready",
]);

/**
 * decodeEvent turns one SSE message (its `event:` name and joined `data:`
 * lines) into a StreamEvent, or null when it is not one we know. The spec's
 * form is `data: {"type": ..., "data": ...}`; a named event whose data is the
 * payload (`event: premises` + `data: [...]`) is accepted too.
 */
export function decodeEvent(name: string, data: string): StreamEvent | null {
  if (data === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (
    parsed !== null &&
    typeof parsed === "object" &&
    !Array.isArray(parsed) &&
    typeof (parsed as { type?: unknown }).type === "string" &&
    KNOWN.has((parsed as { type: StreamEvent["type"] }).type)
  ) {
    const o = parsed as { type: StreamEvent["type"]; data?: unknown };
    return { type: o.type, data: o.data } as StreamEvent;
  }
  if (name !== "" && name !== "message" && KNOWN.has(name as StreamEvent["type"])) {
    return { type: name, data: parsed } as StreamEvent;
  }
  return null;
}

/** SSEParser incrementally splits a text/event-stream into StreamEvents. */
export class SSEParser {
  private buf = "";
  private name = "";
  private data: string[] = [];

  /** push feeds a decoded chunk and returns the events it completed. */
  push(chunk: string): StreamEvent[] {
    this.buf += chunk;
    const out: StreamEvent[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buf);
      if (!m) break;
      // A lone \r at the end may be the first half of \r\n: wait for more.
      if (m[0] === "\r" && m.index === this.buf.length - 1) break;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    return out;
  }

  /** end flushes a final message that had no trailing blank line. */
  end(): StreamEvent[] {
    const out: StreamEvent[] = [];
    if (this.buf !== "") {
      const ev = this.line(this.buf);
      this.buf = "";
      if (ev) out.push(ev);
    }
    const ev = this.line("");
    if (ev) out.push(ev);
    return out;
  }

  private line(line: string): StreamEvent | null {
    if (line === "") {
      const ev = this.data.length > 0 ? decodeEvent(this.name, this.data.join("\n")) : null;
      this.name = "";
      this.data = [];
      return ev;
    }
    if (line.startsWith(":")) return null;
    const i = line.indexOf(":");
    const field = i < 0 ? line : line.slice(0, i);
    let value = i < 0 ? "" : line.slice(i + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.name = value;
    return null;
  }
}

/**
 * readEventStream reads an SSE response body to its end, calling onEvent for
 * every event. It resolves when the server closes the stream or signal aborts.
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (ev: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SSEParser();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", onAbort);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const ev of parser.push(decoder.decode(value, { stream: true }))) onEvent(ev);
    }
    for (const ev of parser.push(decoder.decode())) onEvent(ev);
    for (const ev of parser.end()) onEvent(ev);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
