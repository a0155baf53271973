import { type ComponentType, lazy, Suspense } from "react";

/** PlainSpec shows the spec as text: while the renderer loads, or if it cannot be loaded. */
function PlainSpec({ source }: { source: string }) {
  return <pre className="whitespace-pre-wrap break-words font-sans text-sm">{source}</pre>;
}

// The Markdown renderer (react-markdown + GFM, most of the bundle) loads only when a spec is
// shown; a failed load (e.g. the server was upgraded since the page opened) falls back to text.
const Markdown = lazy<ComponentType<{ source: string }>>(() =>
  import("./Markdown").then(
    (m) => ({ default: m.Markdown }),
    () => ({ default: PlainSpec }),
  ),
);

interface Props {
  spec: string;
  downloadUrl: string;
  sessionId: string;
}

/** SpecView renders the final spec as Markdown with a link to download the .md file. */
export function SpecView({ spec, downloadUrl, sessionId }: Props) {
  return (
    <section aria-labelledby="final-spec-h" className="space-y-4 rounded-2xl border-2 border-green-200 bg-white p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="final-spec-h" className="text-xl font-bold text-green-800">
          Final spec
        </h2>
        <a
          href={downloadUrl}
          download={`ghostpath-spec-${sessionId}.md`}
          className="rounded-lg bg-green-700 px-4 py-2 text-sm font-medium text-white hover:bg-green-800"
        >
          Download spec (.md)
        </a>
      </div>
      <article aria-label="Spec content" className="text-gray-800">
        <Suspense fallback={<PlainSpec source={spec} />}>
          <Markdown source={spec} />
        </Suspense>
      </article>
    </section>
  );
}
