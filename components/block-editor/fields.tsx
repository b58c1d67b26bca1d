'use client';

import { type ReactNode, useState } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { KindHelp } from '@/lib/schema/kind-help';

/** A titled group of fields in the editor panel. */
export function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <fieldset className="space-y-3 border-t border-slate-200 pt-3">
      <div className="flex items-center justify-between">
        <legend className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</legend>
        {actions}
      </div>
      {children}
    </fieldset>
  );
}

/** Under a kind's select: what the chosen kind does and when to use it. */
export function KindHint({ help }: { help: KindHelp }) {
  return (
    <>
      {help.does} <span className="text-slate-400">Use it for {help.useFor}</span>
    </>
  );
}

export function CheckboxField({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 rounded border-slate-300"
      />
      <label htmlFor={id} className="text-sm text-slate-700">
        {label}
      </label>
    </div>
  );
}

/**
 * A number typed as text: the field keeps what was typed and shows an error; only a valid number
 * (or an empty field, when optional) reaches `onChange`.
 */
export function NumberField({
  id,
  label,
  value,
  onChange,
  min = 0,
  integer = true,
  optional = true,
  hint,
}: {
  id: string;
  label: string;
  value: number | undefined;
  onChange(value: number | undefined): void;
  min?: number;
  integer?: boolean;
  optional?: boolean;
  hint?: string;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [error, setError] = useState<string | null>(null);
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <Input
        id={id}
        inputMode={integer ? 'numeric' : 'decimal'}
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          const raw = e.target.value;
          setText(raw);
          if (!raw.trim()) {
            if (optional) {
              setError(null);
              onChange(undefined);
            } else setError('enter a number');
            return;
          }
          const n = Number(raw);
          if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min) {
            setError(`enter ${integer ? 'a whole number' : 'a number'} of at least ${min}`);
            return;
          }
          setError(null);
          onChange(n);
        }}
      />
    </Field>
  );
}

/** Comma-separated positive ids (client lists), e.g. `3, 12`. */
export function IdListField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: readonly number[];
  onChange(value: number[]): void;
}) {
  const [text, setText] = useState(value.join(', '));
  const [error, setError] = useState<string | null>(null);
  return (
    <Field id={id} label={label} error={error} hint="List ids separated by commas">
      <Input
        id={id}
        value={text}
        placeholder="e.g. 3, 12"
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const parts = e.target.value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
          const bad = parts.find((p) => !/^\d+$/.test(p) || Number(p) <= 0);
          if (bad !== undefined) {
            setError(`"${bad}" is not a list id (a positive whole number)`);
            return;
          }
          setError(null);
          onChange(parts.map(Number));
        }}
      />
    </Field>
  );
}

/** Stable keys for the rows of an editable list (so per-row field state follows reordering). */
export function useRowKeys(initialCount: number) {
  const [keys, setKeys] = useState(() => Array.from({ length: initialCount }, (_, i) => i));
  const [next, setNext] = useState(initialCount);
  return {
    keys,
    /** The key the next added row gets. */
    next,
    add() {
      setKeys((k) => [...k, next]);
      setNext((n) => n + 1);
    },
    remove(index: number) {
      setKeys((k) => k.filter((_, i) => i !== index));
    },
    move(from: number, to: number) {
      setKeys((k) => moveItem(k, from, to));
    },
  };
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length) return [...items];
  const out = [...items];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}
