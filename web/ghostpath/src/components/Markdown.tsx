import { Fragment, type ReactNode, useMemo } from "react";
import { type Block, type Inline, parseInline, parseMarkdown } from "../lib/markdown";

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.t) {
      case "text":
        return <Fragment key={i}>{n.v}</Fragment>;
      case "code":
        return (
          <code key={i} className="rounded bg-gray-100 px-1 py-0.5 font-mono text-[0.9em]">
            {n.v}
          </code>
        );
      case "strong":
        return <strong key={i}>{renderInline(n.c)}</strong>;
      case "em":
        return <em key={i}>{renderInline(n.c)}</em>;
      case "del":
        return <del key={i}>{renderInline(n.c)}</del>;
      case "link":
        return (
          <a key={i} href={n.href} target="_blank" rel="noopener noreferrer" className="text-blue-700 underline">
            {renderInline(n.c)}
          </a>
        );
      case "br":
        return <br key={i} />;
    }
  });
}

const HEADING = ["text-2xl", "text-xl", "text-lg", "text-base", "text-base", "text-sm"];

function renderBlock(b: Block, key: number): ReactNode {
  switch (b.t) {
    case "h": {
      const Tag = `h${b.level}` as "h1";
      return (
        <Tag key={key} className={`${HEADING[b.level - 1]} mt-6 mb-2 font-semibold first:mt-0`}>
          {renderInline(parseInline(b.text))}
        </Tag>
      );
    }
    case "p":
      return (
        <p key={key} className="my-3 leading-relaxed">
          {renderInline(parseInline(b.text))}
        </p>
      );
    case "code":
      return (
        <pre key={key} className="my-3 overflow-x-auto rounded-lg bg-gray-900 p-3 text-sm text-gray-100">
          <code data-lang={b.lang || undefined}>{b.text}</code>
        </pre>
      );
    case "quote":
      return (
        <blockquote key={key} className="my-3 border-l-4 border-gray-300 pl-4 text-gray-700">
          {b.children.map(renderBlock)}
        </blockquote>
      );
    case "list": {
      const items = b.items.map((item, i) => (
        <li key={i} className="my-1">
          {item.length === 1 && item[0]!.t === "p" ? renderInline(parseInline(item[0]!.text)) : item.map(renderBlock)}
        </li>
      ));
      return b.ordered ? (
        <ol key={key} start={b.start} className="my-3 list-decimal pl-6">
          {items}
        </ol>
      ) : (
        <ul key={key} className="my-3 list-disc pl-6">
          {items}
        </ul>
      );
    }
    case "hr":
      return <hr key={key} className="my-6 border-gray-200" />;
    case "table":
      return (
        <div key={key} className="my-3 overflow-x-auto">
          <table className="min-w-full border-collapse text-sm">
            <thead>
              <tr>
                {b.head.map((c, i) => (
                  <th key={i} style={{ textAlign: b.align[i] ?? undefined }} className="border border-gray-200 bg-gray-50 px-2 py-1">
                    {renderInline(parseInline(c))}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {b.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((c, k) => (
                    <td key={k} style={{ textAlign: b.align[k] ?? undefined }} className="border border-gray-200 px-2 py-1">
                      {renderInline(parseInline(c))}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** Markdown renders untrusted Markdown as React elements (no raw HTML). */
export function Markdown({ source }: { source: string }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <div className="break-words">{blocks.map(renderBlock)}</div>;
}
