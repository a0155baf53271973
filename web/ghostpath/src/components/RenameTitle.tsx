import { useState } from "react";
import type { SessionDetail } from "../types";

/** RenameTitle shows the session's name as the page heading, with a form to rename it. */
export function RenameTitle({ detail, onRename }: { detail: SessionDetail; onRename: (title: string) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);

  if (!editing) {
    return (
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="min-w-0 break-words text-xl font-bold">{detail.title?.trim() || "Session"}</h1>
        <button
          type="button"
          onClick={() => {
            setValue(detail.title ?? "");
            setError(null);
            setEditing(true);
          }}
          className="text-sm text-blue-700 underline"
        >
          Rename
        </button>
      </div>
    );
  }
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      await onRename(value.trim());
      setEditing(false);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form onSubmit={(e) => void save(e)} className="flex flex-wrap items-center gap-2">
      <label htmlFor="session-title" className="sr-only">
        Session name
      </label>
      <input
        id="session-title"
        value={value}
        maxLength={200}
        placeholder="A name for this session"
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && setEditing(false)}
        autoFocus
        className="min-w-0 flex-1 rounded-lg border border-gray-300 px-2 py-1"
      />
      <button type="submit" className="rounded-lg bg-blue-700 px-3 py-1 text-sm text-white">
        Save name
      </button>
      <button type="button" onClick={() => setEditing(false)} className="text-sm underline">
        Keep it
      </button>
      {error && (
        <p role="alert" className="w-full text-sm text-red-700">
          Could not rename: {error}
        </p>
      )}
    </form>
  );
}
