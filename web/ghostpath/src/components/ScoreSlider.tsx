import { useId } from "react";

/** roundScore clamps v to 0–10 and rounds it to one decimal, as the API does. */
export function roundScore(v: number): number {
  if (!Number.isFinite(v)) return 0;
  return Math.round(Math.min(10, Math.max(0, v)) * 10) / 10;
}

/** UNSET hides the range thumb until the premise is scored, so no position looks like a score. */
const UNSET =
  "h-2 cursor-pointer appearance-none rounded-full bg-gray-200 [&::-webkit-slider-thumb]:opacity-0 [&::-moz-range-thumb]:opacity-0";

interface Props {
  label: string;
  value: number | undefined;
  onChange: (score: number) => void;
  disabled?: boolean;
}

/** ScoreSlider scores a premise from 0 to 10 in steps of 0.1: a range input and a number box; it starts unset (no thumb, empty box). */
export function ScoreSlider({ label, value, onChange, disabled }: Props) {
  const id = useId();
  const scored = value !== undefined;
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={`${id}-range`} className="text-sm font-medium text-gray-700">
          {label}
        </label>
        <input
          type="number"
          min={0}
          max={10}
          step={0.1}
          aria-label={`${label} (number)`}
          value={scored ? String(value) : ""}
          placeholder="–"
          disabled={disabled}
          onChange={(e) => {
            if (e.target.value !== "") onChange(roundScore(Number(e.target.value)));
          }}
          className="w-20 rounded-lg border border-gray-300 px-2 py-1 text-right text-sm"
        />
      </div>
      <input
        id={`${id}-range`}
        type="range"
        min={0}
        max={10}
        step={0.1}
        value={scored ? value : 5}
        disabled={disabled}
        data-unset={scored ? undefined : "true"}
        aria-valuetext={scored ? `${value.toFixed(1)} out of 10` : "not scored yet"}
        onChange={(e) => onChange(roundScore(Number(e.target.value)))}
        // Unset has no thumb (no pretend 5); a click where the hidden thumb sits still scores.
        onClick={(e) => !scored && onChange(roundScore(Number(e.currentTarget.value)))}
        className={`w-full ${scored ? "accent-blue-600" : UNSET}`}
      />
      {!scored && <p className="text-xs text-gray-500">Not scored yet</p>}
    </div>
  );
}
