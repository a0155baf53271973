import { useEffect, useMemo, useRef, useState } from "react";
import type { FileHint, TreeNode } from "../protocol/types";
import { ancestors, visibleRows } from "../state/tree";

const ROW = 24;

const hintClass: Record<string, string> = {
  obvious: "bg-amber-100 font-semibold",
  suggested: "bg-sky-100",
  subtle: "underline decoration-sky-400 decoration-dotted",
};

/**
 * FileTree shows the project tree, virtualised: only the rows in view are
 * rendered, so a 10,000-file tree opens without a long task. Hinted files
 * (explorer:hint_files) get their style and their folders open.
 */
export function FileTree({ root, hints, active, selected = null, onOpen, onSelect }: {
  root: TreeNode | null;
  hints: Record<string, FileHint>;
  active: string | null;
  selected?: string | null;
  onOpen: (path: string) => void;
  onSelect?: (path: string, dir: boolean) => void;
}) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [scroll, setScroll] = useState(0);
  const [height, setHeight] = useState(600);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const want = [...Object.values(hints).flatMap((h) => [...ancestors(h.path), ...(h.directories ?? [])]), ...(active ? ancestors(active) : [])];
    if (want.some((d) => !expanded.has(d))) setExpanded((e) => new Set([...e, ...want]));
  }, [hints, active]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight || 600));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const rows = useMemo(() => visibleRows(root, expanded), [root, expanded]);
  const first = Math.max(0, Math.floor(scroll / ROW) - 10);
  const last = Math.min(rows.length, Math.ceil((scroll + height) / ROW) + 10);
  const toggle = (p: string) => setExpanded((e) => { const n = new Set(e); if (n.has(p)) n.delete(p); else n.add(p); return n; });

  if (!root) return <p className="p-3 text-sm text-gray-500">Loading the project…</p>;
  return (
    <div ref={box} role="tree" aria-label="Files" className="h-full overflow-auto text-sm" onScroll={(e) => setScroll(e.currentTarget.scrollTop)}>
      <div style={{ height: rows.length * ROW, position: "relative" }}>
        {rows.slice(first, last).map(({ node, depth }, i) => {
          const hint = hints[node.path] ?? Object.values(hints).find((h) => h.directories?.includes(node.path));
          const dir = node.type === "directory";
          return (
            <div
              key={node.path}
              role="treeitem"
              aria-expanded={dir ? expanded.has(node.path) : undefined}
              aria-selected={node.path === (selected ?? active)}
              data-path={node.path}
              data-hint={hint?.style}
              title={node.path}
              onClick={() => { if (dir) { toggle(node.path); onSelect?.(node.path, true); } else onOpen(node.path); }}
              style={{ position: "absolute", top: (first + i) * ROW, height: ROW, left: 0, right: 0, paddingLeft: 8 + depth * 14 }}
              className={`flex cursor-pointer items-center gap-1 truncate pr-2 hover:bg-gray-100 ${node.path === (selected ?? active) ? "bg-indigo-50" : ""} ${hint ? (hintClass[hint.style] ?? hintClass.suggested) : ""}`}
            >
              <span aria-hidden className="w-3 text-gray-400">{dir ? (expanded.has(node.path) ? "▾" : "▸") : ""}</span>
              {node.name}
            </div>
          );
        })}
      </div>
    </div>
  );
}
