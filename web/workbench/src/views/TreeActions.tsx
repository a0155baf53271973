import { useState } from "react";

type Mode = { kind: "file" | "directory" | "rename"; value: string } | { kind: "delete" } | null;

/** dirOf is the directory a new entry goes in when path is selected ("" for the project root). */
export function dirOf(path: string | null, isDir: boolean): string {
  if (!path) return "";
  if (isDir) return path;
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/**
 * TreeActions is the file tree's toolbar: New file, New folder, Rename and
 * Delete (of the selected entry), each finished in place: a path field for
 * the first three, one more question before deleting.
 */
export function TreeActions({ selected, selectedIsDir, onCreate, onRename, onDelete }: {
  selected: string | null;
  selectedIsDir: boolean;
  onCreate: (path: string, dir: boolean) => void;
  onRename: (from: string, to: string) => void;
  onDelete: (path: string) => void;
}) {
  const [mode, setMode] = useState<Mode>(null);
  const base = dirOf(selected, selectedIsDir);
  const start = (kind: "file" | "directory") => setMode({ kind, value: base ? `${base}/` : "" });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!mode || mode.kind === "delete") return;
    const v = mode.value.trim().replace(/^\/+/, "");
    if (!v || v.endsWith("/")) return;
    if (mode.kind === "rename" && selected) onRename(selected, v);
    else if (mode.kind !== "rename") onCreate(v, mode.kind === "directory");
    setMode(null);
  };
  const btn = "rounded px-1.5 py-0.5 hover:bg-gray-200 disabled:opacity-40";
  return (
    <div className="shrink-0 border-b border-gray-200 text-xs">
      <div role="toolbar" aria-label="File actions" className="flex flex-wrap gap-0.5 px-1 py-1">
        <button type="button" className={btn} onClick={() => start("file")}>New file</button>
        <button type="button" className={btn} onClick={() => start("directory")}>New folder</button>
        <button type="button" className={btn} disabled={!selected} onClick={() => selected && setMode({ kind: "rename", value: selected })}>Rename</button>
        <button type="button" className={btn} disabled={!selected} onClick={() => setMode({ kind: "delete" })}>Delete</button>
      </div>
      {mode && mode.kind !== "delete" && (
        <form className="flex gap-1 px-1 pb-1" onSubmit={submit}>
          <input autoFocus aria-label={mode.kind === "rename" ? "New path" : mode.kind === "file" ? "New file path" : "New folder path"} value={mode.value}
            onChange={(e) => setMode({ ...mode, value: e.target.value })} onKeyDown={(e) => e.key === "Escape" && setMode(null)}
            className="min-w-0 flex-1 rounded border border-gray-300 px-1 py-0.5" />
          <button type="submit" className="rounded bg-indigo-600 px-1.5 text-white">{mode.kind === "rename" ? "Rename" : "Create"}</button>
        </form>
      )}
      {mode?.kind === "delete" && selected && (
        <div className="flex flex-wrap items-center gap-1 px-1 pb-1">
          <span className="min-w-0 break-all">Delete {selected}{selectedIsDir ? " and everything in it" : ""}?</span>
          <button type="button" className="rounded bg-red-600 px-1.5 text-white" onClick={() => { onDelete(selected); setMode(null); }}>Yes, delete</button>
          <button type="button" className="rounded bg-gray-100 px-1.5" onClick={() => setMode(null)}>Keep</button>
        </div>
      )}
    </div>
  );
}
