import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";

/** ConfirmRequest is one question: what happens, the item it is about, and the two answers. */
export interface ConfirmRequest {
  title: string;
  detail?: string;
  confirm: string;
  keep?: string;
  danger?: boolean;
}

interface Open extends ConfirmRequest {
  answer: (ok: boolean) => void;
}

/**
 * useConfirm returns an in-page confirmation dialog (an alertdialog in the app's own look, so
 * it shows in screenshots and reads the same everywhere) and ask(), which shows it and
 * resolves to true only when the user confirms. Escape, the backdrop and the keep button
 * answer false; focus starts on the keep button, so Enter never destroys by accident.
 */
export function useConfirm(): [ReactNode, (r: ConfirmRequest) => Promise<boolean>] {
  const [open, setOpen] = useState<Open | null>(null);
  const ask = useCallback(
    (r: ConfirmRequest) =>
      new Promise<boolean>((resolve) =>
        setOpen({
          ...r,
          answer: (ok) => {
            setOpen(null);
            resolve(ok);
          },
        }),
      ),
    [],
  );
  return [open ? <Dialog {...open} /> : null, ask];
}

function Dialog({ title, detail, confirm, keep = "No, keep it", danger, answer }: Open) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const back = document.activeElement as HTMLElement | null;
    keepRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && answer(false);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      back?.focus?.();
    };
  }, [answer]);
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-4" onClick={() => answer(false)}>
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        aria-describedby={detail ? "confirm-detail" : undefined}
        onClick={(e) => e.stopPropagation()}
        className="w-full max-w-md space-y-4 rounded-xl bg-white p-5 shadow-xl"
      >
        <h2 id="confirm-title" className="text-base font-semibold">
          {title}
        </h2>
        {detail && (
          <p id="confirm-detail" className="line-clamp-4 whitespace-pre-line break-words text-sm text-gray-600">
            {detail}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button ref={keepRef} type="button" onClick={() => answer(false)} className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-50">
            {keep}
          </button>
          <button
            type="button"
            onClick={() => answer(true)}
            className={`rounded-lg px-3 py-1.5 text-sm font-medium text-white ${danger ? "bg-red-700 hover:bg-red-800" : "bg-amber-700 hover:bg-amber-800"}`}
          >
            {confirm}
          </button>
        </div>
      </div>
    </div>
  );
}
