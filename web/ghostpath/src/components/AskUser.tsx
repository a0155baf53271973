import { type FormEvent, useId, useState } from "react";
import type { AskUserData } from "../types";

const FREE = "__free_text__";

interface Props {
  data: AskUserData;
  onRespond: (response: string) => void;
  busy?: boolean;
}

/** AskUser shows the agent's question with its options and, unless disabled, a free-text answer. */
export function AskUser({ data, onRespond, busy = false }: Props) {
  const [selected, setSelected] = useState<string | null>(null);
  const [freeText, setFreeText] = useState("");
  const id = useId();
  const allowFree = data.allow_free_text !== false;
  const response = selected === FREE ? freeText.trim() : selected;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (response && !busy) onRespond(response);
  };

  return (
    <form onSubmit={submit} className="space-y-4 rounded-2xl border-2 border-blue-200 bg-blue-50/50 p-4 sm:p-6">
      {data.context && (
        <div className="whitespace-pre-line rounded-lg border border-gray-100 bg-white p-4 text-sm text-gray-600">{data.context}</div>
      )}
      <fieldset className="space-y-2">
        <legend className="mb-2 text-lg font-semibold">{data.question}</legend>
        {data.options.map((opt, i) => (
          <label
            key={`${i}-${opt.label}`}
            className={`flex cursor-pointer items-start gap-3 rounded-xl border-2 px-4 py-3 ${
              selected === opt.label ? "border-blue-500 bg-blue-50" : "border-gray-200 bg-white"
            }`}
          >
            <input
              type="radio"
              name={`${id}-answer`}
              value={opt.label}
              checked={selected === opt.label}
              onChange={() => setSelected(opt.label)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{opt.label}</span>
              {opt.description && <span className="mt-0.5 block text-sm text-gray-500">{opt.description}</span>}
            </span>
          </label>
        ))}
        {allowFree && (
          <label
            className={`flex cursor-pointer items-start gap-3 rounded-xl border-2 px-4 py-3 ${
              selected === FREE ? "border-blue-500 bg-blue-50" : "border-gray-200 bg-white"
            }`}
          >
            <input
              type="radio"
              name={`${id}-answer`}
              value={FREE}
              checked={selected === FREE}
              onChange={() => setSelected(FREE)}
              className="mt-1"
            />
            <span className="font-medium text-gray-600">Type my own response…</span>
          </label>
        )}
      </fieldset>
      {allowFree && selected === FREE && (
        <div>
          <label htmlFor={`${id}-free`} className="text-sm font-medium text-gray-700">
            Your response
          </label>
          <textarea
            id={`${id}-free`}
            value={freeText}
            maxLength={5000}
            rows={3}
            autoFocus
            onChange={(e) => setFreeText(e.target.value)}
            className="mt-1 w-full rounded-xl border-2 border-blue-300 p-3 text-sm"
          />
        </div>
      )}
      <button
        type="submit"
        disabled={!response || busy}
        className="w-full rounded-xl bg-blue-600 py-3 font-medium text-white hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-40"
      >
        Submit response
      </button>
    </form>
  );
}
