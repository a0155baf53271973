import { useState } from "react";
import { plural } from "../lib/plural";
import { appStore, useApp } from "../state/store";

/** SearchPanel searches the project's files on the server (fs:search) and opens a hit at its line. */
export function SearchPanel() {
  const search = useApp((s) => s.workspace.search);
  const [q, setQ] = useState(search.query);
  const store = appStore();
  const r = search.result;
  return (
    <div className="flex h-full min-h-0 flex-col text-sm">
      <form className="flex shrink-0 gap-1 border-b border-gray-200 p-1" onSubmit={(e) => { e.preventDefault(); if (q.trim()) store.search(q); }}>
        <input type="search" aria-label="Search in files" placeholder="Search in files…" value={q} onChange={(e) => setQ(e.target.value)}
          className="min-w-0 flex-1 rounded border border-gray-300 px-1.5 py-0.5" />
        <button type="submit" className="rounded bg-indigo-600 px-2 text-xs text-white">Search</button>
      </form>
      <div role="region" aria-label="Search results" className="min-h-0 flex-1 overflow-auto">
        {search.status === "loading" && <p className="p-2 text-gray-500">Searching…</p>}
        {search.status === "error" && <p className="p-2 text-amber-800">{search.error}</p>}
        {search.status === "ready" && r && (
          <>
            <p className="px-2 py-1 text-xs text-gray-500">
              {plural(r.hits.length, "line")} in {plural(new Set(r.hits.map((h) => h.path)).size, "file")}{r.truncated && " (stopped at the limit: narrow the search)"}
            </p>
            <ul>
              {r.hits.map((h) => (
                <li key={`${h.path}:${h.line}`}>
                  <button type="button" data-hit={`${h.path}:${h.line}`} className="block w-full truncate px-2 py-0.5 text-left hover:bg-gray-100" title={h.preview} onClick={() => store.reveal(h.path, h.line)}>
                    <span className="text-indigo-700">{h.path}:{h.line}</span> <span className="text-gray-600">{h.preview.trim()}</span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}
