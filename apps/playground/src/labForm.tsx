/**
 * The form pieces the lab tabs (context cards, history compaction, repository pack) share: the
 * task box, the token-budget slider, a segmented choice, a list of notes, and the debounced write
 * of a tab's state into the URL. Each renders the markup the tabs wrote by hand before (same
 * classes, labels and test ids).
 */
import { useEffect } from 'react';

/** While the tab is active, mirror its state into the URL (replaceState, 300 ms after the last change). */
export function useUrlState<P>(params: P, active: boolean, write: (p: P) => string): void {
  useEffect(() => {
    if (!active) return;
    const t = setTimeout(() => {
      const search = write(params);
      if (search !== window.location.search) window.history.replaceState(null, '', search);
    }, 300);
    return () => clearTimeout(t);
  }, [params, active, write]);
}

/** The task: what the agent is about to do (a row of its own). */
export function TaskField({ value, onChange, testId, placeholder }: { value: string; onChange: (task: string) => void; testId: string; placeholder?: string }) {
  return (
    <div className="row">
      <label className="field grow">
        <span>Task</span>
        <textarea
          rows={2}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-label="Task: what the agent is about to do"
          data-testid={testId}
          placeholder={placeholder}
        />
      </label>
    </div>
  );
}

export interface BudgetRange {
  min: number;
  max: number;
  step: number;
}

/** A token budget on a slider, its value beside it. `testId` names the slider; `${testId}-value` the value. */
export function BudgetSlider({
  value,
  shown = value,
  range,
  onChange,
  label,
  testId,
}: {
  value: number;
  /** The value the slider shows, when the budget may be outside the range (e.g. over the transcript's length). */
  shown?: number;
  range: BudgetRange;
  onChange: (budget: number) => void;
  label: string;
  testId: string;
}) {
  return (
    <label className="field ratio">
      <span>Budget</span>
      <input
        type="range"
        min={range.min}
        max={range.max}
        step={range.step}
        value={shown}
        onChange={(e) => onChange(Number(e.target.value))}
        aria-label={label}
        aria-valuetext={`${value} tokens`}
        data-testid={testId}
      />
      <output className="ratio-value wide" data-testid={`${testId}-value`}>
        {value} tok
      </output>
    </label>
  );
}

/** One of a few options as a segmented radio group; each radio's test id is `${testIdPrefix}-${option}`. */
export function Segmented<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  label,
  title,
  testIdPrefix,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: T;
  onChange: (v: T) => void;
  label: (v: T) => string;
  title: (v: T) => string;
  testIdPrefix: string;
}) {
  return (
    <fieldset className="segmented" aria-label={legend}>
      <legend className="sr-only">{legend}</legend>
      {options.map((s) => (
        <label key={s} className={value === s ? 'on' : ''} title={title(s)}>
          <input type="radio" name={name} value={s} checked={value === s} onChange={() => onChange(s)} data-testid={`${testIdPrefix}-${s}`} />
          {label(s)}
        </label>
      ))}
    </fieldset>
  );
}

/** Notes in words (audit reasons, degradations); nothing when there are none. */
export function Notes({ items, testId }: { items: readonly string[]; testId?: string }) {
  if (items.length === 0) return null;
  return (
    <ul className="notes" data-testid={testId}>
      {items.map((r) => (
        <li key={r} className="note">
          {r}
        </li>
      ))}
    </ul>
  );
}
