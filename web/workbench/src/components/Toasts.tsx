import { useEffect } from "react";
import type { Toast } from "../state/app";

/** TOAST_MS is how long a toast stays; errors stay until dismissed. */
export const TOAST_MS = 20_000;

function AutoDismiss({ id, onDismiss }: { id: number; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const t = setTimeout(() => onDismiss(id), TOAST_MS);
    return () => clearTimeout(t);
  }, [id, onDismiss]);
  return null;
}

const tone: Record<Toast["kind"], string> = {
  nudge: "border-violet-300 bg-violet-50",
  error: "border-red-300 bg-red-50",
  warning: "border-amber-300 bg-amber-50",
  success: "border-green-300 bg-green-50",
  hint: "border-sky-300 bg-sky-50",
  info: "border-gray-300 bg-white",
};

/** Toasts shows Observer nudges, coaching messages and errors in the corner. */
export function Toasts({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div aria-live="polite" className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 flex-col gap-2">
      {toasts.map((t) => (
        <div key={t.id} role="status" data-kind={t.kind} className={`pointer-events-auto rounded border p-3 text-sm shadow ${tone[t.kind]}`}>
          <div className="flex items-start justify-between gap-2">
            <strong className="font-semibold">{t.title}</strong>
            <button type="button" aria-label="Dismiss" className="text-gray-500 hover:text-gray-800" onClick={() => onDismiss(t.id)}>
              ×
            </button>
          </div>
          <p className="mt-1 text-gray-700">{t.text}</p>
          {t.kind !== "error" && <AutoDismiss id={t.id} onDismiss={onDismiss} />}
        </div>
      ))}
    </div>
  );
}
