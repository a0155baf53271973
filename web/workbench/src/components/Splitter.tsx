import { useCallback, useState } from "react";

/** usePaneSize is a pane's size in px, kept in localStorage under key and clamped to [min, max]. */
export function usePaneSize(key: string, initial: number, min: number, max: number): [number, (px: number) => void] {
  const clamp = useCallback((v: number) => Math.min(max, Math.max(min, Math.round(v))), [min, max]);
  const [size, setSize] = useState(() => {
    const saved = Number(globalThis.localStorage?.getItem(`paige.pane.${key}`));
    return clamp(Number.isFinite(saved) && saved > 0 ? saved : initial);
  });
  const set = useCallback((px: number) => {
    const v = clamp(px);
    setSize(v);
    try {
      localStorage.setItem(`paige.pane.${key}`, String(v));
    } catch {
      // storage refused (private mode): the size lasts for this page only
    }
  }, [key, clamp]);
  return [size, set];
}

/**
 * Splitter is a drag handle between two panes. axis "x" resizes a width,
 * "y" a height; dir is +1 when dragging right/down grows the pane, -1 when
 * it shrinks it. Arrow keys move it by 16 px.
 */
export function Splitter({ axis, size, dir, onResize, label }: { axis: "x" | "y"; size: number; dir: 1 | -1; onResize: (px: number) => void; label: string }) {
  const down = (e: React.PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const start = axis === "x" ? e.clientX : e.clientY;
    const from = size;
    const el = e.currentTarget;
    el.setPointerCapture(e.pointerId);
    const move = (m: PointerEvent) => onResize(from + dir * ((axis === "x" ? m.clientX : m.clientY) - start));
    const up = () => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
  };
  const key = (e: React.KeyboardEvent) => {
    const step = { ArrowLeft: -16, ArrowUp: -16, ArrowRight: 16, ArrowDown: 16 }[e.key];
    if (step) { e.preventDefault(); onResize(size + dir * step); }
  };
  return (
    <div role="separator" aria-label={label} aria-orientation={axis === "x" ? "vertical" : "horizontal"} aria-valuenow={size} tabIndex={0}
      onPointerDown={down} onKeyDown={key}
      className={`shrink-0 bg-gray-200 hover:bg-indigo-300 focus:bg-indigo-400 focus:outline-none ${axis === "x" ? "w-1 cursor-col-resize" : "h-1 cursor-row-resize"}`} />
  );
}
