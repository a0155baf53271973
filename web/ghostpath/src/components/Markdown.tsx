import { memo } from "react";
import ReactMarkdown, { type Components, defaultUrlTransform } from "react-markdown";
import remarkGfm from "remark-gfm";

const HEADING = ["text-2xl", "text-xl", "text-lg", "text-base", "text-base", "text-sm"];

function heading(level: number): Components["h1"] {
  const Tag = `h${level}` as "h1";
  return ({ node: _node, ...props }) => <Tag {...props} className={`${HEADING[level - 1]} mt-6 mb-2 font-semibold first:mt-0`} />;
}

/** safeHref keeps http(s), mailto, relative and fragment links; anything else (javascript:, data:, …) is dropped. */
export function safeHref(href: string): string | null {
  const t = defaultUrlTransform(href);
  return t === "" ? null : t;
}

const components: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  p: ({ node: _node, ...props }) => <p {...props} className="my-3 leading-relaxed" />,
  a: ({ node: _node, href, ...props }) => {
    const safe = typeof href === "string" ? safeHref(href) : null;
    if (!safe) return <span>{props.children}</span>;
    return <a {...props} href={safe} target="_blank" rel="noopener noreferrer" className="text-blue-700 underline" />;
  },
  ul: ({ node: _node, ...props }) => <ul {...props} className="my-3 list-disc pl-6" />,
  ol: ({ node: _node, ...props }) => <ol {...props} className="my-3 list-decimal pl-6" />,
  li: ({ node: _node, ...props }) => <li {...props} className="my-1" />,
  blockquote: ({ node: _node, ...props }) => <blockquote {...props} className="my-3 border-l-4 border-gray-300 pl-4 text-gray-700" />,
  hr: () => <hr className="my-6 border-gray-200" />,
  pre: ({ node: _node, ...props }) => <pre {...props} className="my-3 overflow-x-auto rounded-lg bg-gray-900 p-3 text-sm text-gray-100" />,
  code: ({ node: _node, className, ...props }) => {
    const lang = /language-([\w-]+)/.exec(className ?? "")?.[1];
    return lang ? (
      <code {...props} data-lang={lang} />
    ) : (
      <code {...props} className="rounded bg-gray-100 px-1 py-0.5 font-mono text-[0.9em] [pre_&]:bg-transparent [pre_&]:p-0" />
    );
  },
  table: ({ node: _node, ...props }) => (
    <div className="my-3 overflow-x-auto">
      <table {...props} className="min-w-full border-collapse text-sm" />
    </div>
  ),
  th: ({ node: _node, ...props }) => <th {...props} className="border border-gray-200 bg-gray-50 px-2 py-1" />,
  td: ({ node: _node, ...props }) => <td {...props} className="border border-gray-200 px-2 py-1" />,
  img: ({ alt }) => <span>{alt ? `[image: ${alt}]` : ""}</span>,
};

/**
 * Markdown renders untrusted Markdown (GitHub-flavoured: tables, strikethrough, autolinks)
 * with react-markdown: raw HTML stays text (`<script>` is shown, never run), unsafe link
 * targets are dropped and images are not loaded.
 */
export const Markdown = memo(function Markdown({ source }: { source: string }) {
  return (
    <div className="break-words">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} urlTransform={defaultUrlTransform}>
        {source}
      </ReactMarkdown>
    </div>
  );
});
