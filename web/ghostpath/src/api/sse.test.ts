import { describe, expect, it } from "vitest";
import { SSEParser, decodeEvent, readEventStream } from "./sse";

describe("decodeEvent", () => {
  it.each([
    ["", '{"type":"agent_text","data":"hi"}', { type: "agent_text", data: "hi" }],
    ["premises", '[{"id":"1"}]', { type: "premises", data: [{ id: "1" }] }],
    ["message", '{"type":"done","data":{"error":false}}', { type: "done", data: { error: false } }],
    ["", '{"type":"nonsense","data":1}', null],
    ["", "not json", null],
    ["", "", null],
    ["", "[1,2]", null],
    ["bogus", '"x"', null],
  ])("event %j data %j", (name, data, want) => expect(decodeEvent(name, data)).toEqual(want));
});

describe("SSEParser", () => {
  it("splits events across arbitrary chunk boundaries and line endings", () => {
    const text =
      ': keep-alive\n\ndata: {"type":"agent_text","data":"one"}\n\n' +
      'data: {"type":"tool_call",\r\ndata: "data":{"tool":"x"}}\r\n\r\n' +
      'event: done\rdata: {"error":false,"awaiting_input":true}\r\r' +
      'data: {"type":"final_spec","data":"# A\\n\\nB"}\n\n';
    const want = [
      { type: "agent_text", data: "one" },
      { type: "tool_call", data: { tool: "x" } },
      { type: "done", data: { error: false, awaiting_input: true } },
      { type: "final_spec", data: "# A\n\nB" },
    ];
    for (const size of [1, 2, 3, 7, 16, text.length]) {
      const p = new SSEParser();
      const got = [];
      for (let i = 0; i < text.length; i += size) got.push(...p.push(text.slice(i, i + size)));
      got.push(...p.end());
      expect(got, `chunk size ${size}`).toEqual(want);
    }
  });

  it("flushes a last event without a trailing blank line", () => {
    const p = new SSEParser();
    expect(p.push('data: {"type":"done","data":{}}')).toEqual([]);
    expect(p.end()).toEqual([{ type: "done", data: {} }]);
  });

  it("skips malformed events and keeps going", () => {
    const p = new SSEParser();
    expect(p.push('data: {oops\n\nid: 3\nretry: 10\ndata: {"type":"agent_text","data":"ok"}\n\n')).toEqual([
      { type: "agent_text", data: "ok" },
    ]);
  });
});

describe("readEventStream", () => {
  it("reads a byte stream with split UTF-8 sequences", async () => {
    const bytes = new TextEncoder().encode('data: {"type":"agent_text","data":"ação ✓"}\n\ndata: {"type":"done","data":{}}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 5) c.enqueue(bytes.slice(i, i + 5));
        c.close();
      },
    });
    const got: unknown[] = [];
    await readEventStream(body, (e) => got.push(e));
    expect(got).toEqual([
      { type: "agent_text", data: "ação ✓" },
      { type: "done", data: {} },
    ]);
  });

  it("stops when aborted", async () => {
    const ctl = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('data: {"type":"agent_text","data":"x"}\n\n'));
      },
    });
    const got: unknown[] = [];
    const done = readEventStream(body, (e) => {
      got.push(e);
      ctl.abort();
    }, ctl.signal);
    await expect(done).resolves.toBeUndefined();
    expect(got).toHaveLength(1);
  });
});
