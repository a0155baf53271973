import { type FormEvent, useId, useState } from "react";

export const MIN_PROBLEM = 10;
export const MAX_PROBLEM = 10_000;

/** problemStatus reports the trimmed length of text and whether the API will accept it. */
export function problemStatus(text: string): { length: number; ok: boolean; message: string } {
  const length = text.trim().length;
  if (length < MIN_PROBLEM) {
    return { length, ok: false, message: `At least ${MIN_PROBLEM} characters (${MIN_PROBLEM - length} more).` };
  }
  if (length > MAX_PROBLEM) {
    return { length, ok: false, message: `At most ${MAX_PROBLEM.toLocaleString("en-US")} characters (${(length - MAX_PROBLEM).toLocaleString("en-US")} too many).` };
  }
  return { length, ok: true, message: "Ready." };
}

interface Props {
  onSubmit: (problem: string) => void | Promise<void>;
  busy?: boolean;
  error?: string | null;
}

/** ProblemInput is the problem form with a live length check (10–10,000 characters after trimming). */
export function ProblemInput({ onSubmit, busy = false, error }: Props) {
  const [text, setText] = useState("");
  const [touched, setTouched] = useState(false);
  const id = useId();
  const status = problemStatus(text);
  const showProblem = touched && !status.ok;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (status.ok && !busy) void onSubmit(text.trim());
  };

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="New session">
      <label htmlFor={`${id}-problem`} className="block text-lg font-semibold">
        What problem do you want to solve?
      </label>
      <textarea
        id={`${id}-problem`}
        name="problem"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => setTouched(true)}
        rows={6}
        aria-describedby={`${id}-count ${id}-hint`}
        aria-invalid={showProblem}
        className="w-full rounded-xl border-2 border-gray-200 bg-white p-3 focus:border-blue-500 focus:outline-none"
        placeholder="Describe the problem, its context and what you have tried…"
      />
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span id={`${id}-count`} className={status.ok ? "text-gray-600" : "text-amber-700"} aria-live="polite">
          {status.length.toLocaleString("en-US")} / {MAX_PROBLEM.toLocaleString("en-US")} characters
        </span>
        <span id={`${id}-hint`} className={showProblem ? "text-red-700" : "text-gray-500"}>
          {status.message}
        </span>
      </div>
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={!status.ok || busy}
        className="w-full rounded-xl bg-blue-600 py-3 font-medium text-white hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-40 sm:w-auto sm:px-8"
      >
        {busy ? "Starting…" : "Start exploring"}
      </button>
    </form>
  );
}
