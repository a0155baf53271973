// A small, safe Markdown parser for the final spec. It builds a plain tree
// that components render as React elements: raw HTML is never injected (it
// stays text), links keep only http(s), mailto and relative targets, and
// nesting is bounded, so any input — the model's output — renders without
// throwing.

export type Inline =
  | { t: "text"; v: string }
  | { t: "code"; v: string }
  | { t: "strong" | "em" | "del"; c: Inline[] }
  | { t: "link"; href: string; c: Inline[] }
  | { t: "br" };

export type Align = "left" | "center" | "right" | null;

export type Block =
  | { t: "h"; level: 1 | 2 | 3 | 4 | 5 | 6; text: string }
  | { t: "p"; text: string }
  | { t: "code"; lang: string; text: string }
  | { t: "quote"; children: Block[] }
  | { t: "list"; ordered: boolean; start: number; items: Block[][] }
  | { t: "hr" }
  | { t: "table"; align: Align[]; head: string[]; rows: string[][] };

const MAX_DEPTH = 12;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+(.*))?$/;
const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** safeHref returns href when it is safe to link to, otherwise null. */
export function safeHref(href: string): string | null {
  // Browsers ignore control characters and spaces inside a scheme ("java\tscript:").
  const compact = href.replace(/[\u0000-\u0020\u007f]/g, "");
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (!m) return compact === "" ? null : href.trim();
  return ["http", "https", "mailto"].includes(m[1]!.toLowerCase()) ? href.trim() : null;
}

/** parseMarkdown parses src into blocks. It never throws. */
export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n");
  return parseBlocks(lines, 0);
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

function parseBlocks(lines: string[], depth: number): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    if (depth >= MAX_DEPTH) {
      out.push({ t: "p", text: lines.slice(i).join("\n").trim() });
      break;
    }
    const next = parseOne(lines, i, depth);
    out.push(next.block);
    i = next.end;
  }
  return out;
}

function parseOne(lines: string[], i: number, depth: number): { block: Block; end: number } {
  const line = lines[i]!;
  const fence = FENCE.exec(line);
  if (fence) {
    const mark = fence[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^ {0,3}${mark[0]}{${mark.length},}\\s*$`).test(lines[j]!)) {
      body.push(lines[j]!);
      j++;
    }
    return { block: { t: "code", lang: fence[2] ?? "", text: body.join("\n") }, end: j + 1 };
  }
  const h = HEADING.exec(line);
  if (h) {
    const level = h[1]!.length as 1 | 2 | 3 | 4 | 5 | 6;
    return { block: { t: "h", level, text: (h[2] ?? "").trim() }, end: i + 1 };
  }
  if (HR.test(line)) return { block: { t: "hr" }, end: i + 1 };
  if (QUOTE.test(line)) {
    const inner: string[] = [];
    let j = i;
    for (let m; j < lines.length && (m = QUOTE.exec(lines[j]!)); j++) inner.push(m[1]!);
    return { block: { t: "quote", children: parseBlocks(inner, depth + 1) }, end: j };
  }
  if (ITEM.test(line)) return parseList(lines, i, depth);
  if (line.includes("|") && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]!) && lines[i + 1]!.includes("-")) {
    return parseTable(lines, i);
  }
  const para: string[] = [line.trim()];
  let j = i + 1;
  while (j < lines.length && lines[j]!.trim() !== "" && !startsBlock(lines[j]!)) {
    para.push(lines[j]!.replace(/^ +/, ""));
    j++;
  }
  return { block: { t: "p", text: para.join("\n") }, end: j };
}

function parseTable(lines: string[], i: number): { block: Block; end: number } {
  const head = splitRow(lines[i]!);
  const align: Align[] = splitRow(lines[i + 1]!).map((c) => {
    const l = c.startsWith(":");
    const r = c.endsWith(":");
    return l && r ? "center" : r ? "right" : l ? "left" : null;
  });
  const rows: string[][] = [];
  let j = i + 2;
  while (j < lines.length && lines[j]!.trim() !== "" && lines[j]!.includes("|")) {
    const cells = splitRow(lines[j]!);
    rows.push(head.map((_, k) => cells[k] ?? ""));
    j++;
  }
  return { block: { t: "table", align: head.map((_, k) => align[k] ?? null), head, rows }, end: j };
}

function parseList(lines: string[], i: number, depth: number): { block: Block; end: number } {
  const first = ITEM.exec(lines[i]!)!;
  const ordered = /\d/.test(first[2]!);
  const start = ordered ? parseInt(first[2]!, 10) : 1;
  const items: Block[][] = [];
  let j = i;
  while (j < lines.length) {
    const m = ITEM.exec(lines[j]!);
    if (!m || /\d/.test(m[2]!) !== ordered) break;
    const indent = m[1]!.length + m[2]!.length + 1;
    const body: string[] = [m[4] ?? ""];
    j++;
    while (j < lines.length) {
      const l = lines[j]!;
      if (l.trim() === "") {
        // A blank line continues the item only if indented content follows.
        const after = lines[j + 1];
        if (after !== undefined && after.trim() !== "" && /^ */.exec(after)![0].length >= indent) {
          body.push("");
          j++;
          continue;
        }
        break;
      }
      const lead = /^ */.exec(l)![0].length;
      if (lead >= indent) body.push(l.slice(indent));
      else if (!startsBlock(l) && body[body.length - 1] !== "") body.push(l.trim()); // lazy continuation
      else break;
      j++;
    }
    items.push(parseBlocks(body, depth + 1));
    while (j < lines.length && lines[j]!.trim() === "" && ITEM.test(lines[j + 1] ?? "")) j++;
  }
  return { block: { t: "list", ordered, start, items }, end: j };
}

/** parseInline parses the inline Markdown of one block's text. It never throws. */
export function parseInline(text: string): Inline[] {
  return inline(text, 0, new Set());
}

const PAIRS: [string, "strong" | "del" | "em"][] = [
  ["**", "strong"],
  ["__", "strong"],
  ["~~", "del"],
  ["*", "em"],
  ["_", "em"],
];

function inline(s: string, depth: number, noClose: Set<string>): Inline[] {
  const out: Inline[] = [];
  let buf = "";
  const flush = () => {
    if (buf) out.push({ t: "text", v: buf });
    buf = "";
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "\\" && i + 1 < s.length) {
      if (s[i + 1] === "\n") {
        flush();
        out.push({ t: "br" });
      } else if (/[!-/:-@[-`{-~]/.test(s[i + 1]!)) buf += s[i + 1];
      else buf += c + s[i + 1];
      i += 2;
      continue;
    }
    if (c === "\n") {
      if (buf.endsWith("  ")) {
        buf = buf.replace(/ +$/, "");
        flush();
        out.push({ t: "br" });
      } else buf += "\n";
      i++;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(s.slice(i))![0];
      const close = noClose.has(run) ? -1 : s.indexOf(run, i + run.length);
      if (close < 0) {
        noClose.add(run);
        buf += run;
        i += run.length;
        continue;
      }
      flush();
      out.push({ t: "code", v: s.slice(i + run.length, close).trim() || s.slice(i + run.length, close) });
      i = close + run.length;
      continue;
    }
    if (depth < MAX_DEPTH) {
      const link = c === "[" ? matchLink(s, i) : null;
      if (link) {
        flush();
        const children = inline(link.label, depth + 1, new Set());
        const href = safeHref(link.href);
        if (href) out.push({ t: "link", href, c: children });
        else out.push(...children);
        i = link.end;
        continue;
      }
      const auto = c === "<" ? /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(s.slice(i)) : null;
      if (auto) {
        flush();
        out.push({ t: "link", href: auto[1]!, c: [{ t: "text", v: auto[1]! }] });
        i += auto[0].length;
        continue;
      }
      const em = matchEmphasis(s, i, noClose);
      if (em) {
        flush();
        out.push({ t: em.kind, c: inline(em.inner, depth + 1, new Set()) });
        i = em.end;
        continue;
      }
    }
    buf += c;
    i++;
  }
  flush();
  return out;
}

function matchLink(s: string, i: number): { label: string; href: string; end: number } | null {
  let level = 0;
  let j = i;
  for (; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "[") level++;
    else if (s[j] === "]" && --level === 0) break;
  }
  if (j >= s.length || s[j + 1] !== "(") return null;
  const m = /^\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))*)>?(?:\s+"[^"]*")?\s*\)/.exec(s.slice(j + 1));
  if (!m) return null;
  return { label: s.slice(i + 1, j), href: m[1]!, end: j + 1 + m[0].length };
}

function matchEmphasis(s: string, i: number, noClose: Set<string>) {
  for (const [mark, kind] of PAIRS) {
    if (!s.startsWith(mark, i) || noClose.has(mark)) continue;
    const open = i + mark.length;
    // The opener must touch text; "_" must not sit inside a word (snake_case).
    if (open >= s.length || /\s/.test(s[open]!) || s[open] === mark[0]) continue;
    if (mark[0] === "_" && i > 0 && /\w/.test(s[i - 1]!)) continue;
    let close = s.indexOf(mark, open + 1);
    while (close > 0 && (/\s/.test(s[close - 1]!) || (mark.length === 1 && s[close + 1] === mark))) {
      close = s.indexOf(mark, close + (mark.length === 1 && s[close + 1] === mark ? 2 : 1));
    }
    if (close < 0) {
      noClose.add(mark);
      continue;
    }
    if (mark[0] === "_" && close + mark.length < s.length && /\w/.test(s[close + mark.length]!)) continue;
    return { kind, inner: s.slice(open, close), end: close + mark.length };
  }
  return null;
}
