/**
 * Coalescer sends at most one value per key per window, and always the last
 * one: the first push for a key starts a window of `wait` ms; later pushes in
 * that window only replace the pending value; when the window ends the latest
 * value is sent. This is how the editor sends `buffer:update` while the user
 * types (docs/workbench.md › Buffer updates).
 */
export interface Coalescer<T> {
  /** push records value as the latest state of key. */
  push(key: string, value: T): void;
  /** flush sends key's pending value now (every key when omitted). */
  flush(key?: string): void;
  /** cancel drops key's pending value without sending it. */
  cancel(key: string): void;
  /** pending reports whether key has a value waiting. */
  pending(key: string): boolean;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function createCoalescer<T>(wait: number, send: (key: string, value: T) => void, timers: Timers = realTimers): Coalescer<T> {
  const waiting = new Map<string, { value: T; timer: unknown }>();
  const fire = (key: string) => {
    const w = waiting.get(key);
    if (!w) return;
    waiting.delete(key);
    timers.clearTimeout(w.timer);
    send(key, w.value);
  };
  return {
    push(key, value) {
      const w = waiting.get(key);
      if (w) {
        w.value = value;
        return;
      }
      waiting.set(key, { value, timer: timers.setTimeout(() => fire(key), wait) });
    },
    flush(key) {
      if (key !== undefined) fire(key);
      else for (const k of [...waiting.keys()]) fire(k);
    },
    cancel(key) {
      const w = waiting.get(key);
      if (w) timers.clearTimeout(w.timer);
      waiting.delete(key);
    },
    pending: (key) => waiting.has(key),
  };
}
