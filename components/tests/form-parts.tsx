'use client';

import { Plus, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { IconButton } from '@/components/ui/icon-button';
import { Input } from '@/components/ui/input';

/**
 * The test form's small controls: compact labelled inputs, removable rows and name/value rows
 * (start variables, a callback's variables), sized for the side panel.
 */

/** The controls' small size: important, as the shared controls' own size comes after in the stylesheet (cn does not merge). */
export const small = '!h-8 !px-2 !text-xs';
export const smallArea = '!px-2 !py-1 !text-xs';

/** A label above a control, in the panel's small type. */
export function Labelled({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child.
    <label className={cn('flex min-w-0 flex-col gap-0.5 text-xs text-slate-600', className)}>
      {label}
      {children}
    </label>
  );
}

/** A titled group of the form (a step, its expectations, the stubs). */
export function Section({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="space-y-2 rounded-md border border-slate-200 p-2">
      <header className="flex items-center justify-between gap-2">
        <h3 className="text-xs font-semibold text-slate-700">{title}</h3>
        {action}
      </header>
      {children}
    </section>
  );
}

export function AddButton({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium text-brand-700 hover:bg-brand-50"
    >
      <Plus className="size-3" aria-hidden />
      {label}
    </button>
  );
}

export function RemoveButton({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <IconButton label={label} onClick={onClick}>
      <X className="size-3.5" aria-hidden />
    </IconButton>
  );
}

/** The list without item i, with items i and j swapped, with item i replaced: the form's immutable edits. */
export const without = <T,>(list: readonly T[], i: number) => list.filter((_, j) => j !== i);
export const swapped = <T,>(list: readonly T[], i: number, j: number) =>
  list.map((x, k) => (k === i ? list[j] : k === j ? list[i] : x));
export const replaced = <T,>(list: readonly T[], i: number, item: T) =>
  list.map((x, j) => (j === i ? item : x));

/**
 * Name and value rows of a record. The rows are kept here, so a name being typed (or two rows
 * with one name, for a moment) stays on screen; the record handed up skips unnamed rows.
 */
export function VariableRows({
  label,
  value,
  onChange,
}: {
  label: string;
  value: Readonly<Record<string, string>>;
  onChange(value: Record<string, string>): void;
}) {
  const [rows, setRows] = useState(() => Object.entries(value));
  const change = (next: [string, string][]) => {
    setRows(next);
    onChange(Object.fromEntries(next.filter(([name]) => name.trim())));
  };
  return (
    <div className="space-y-1">
      {rows.map(([name, text], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place while names are typed.
        <div key={i} className="flex items-center gap-1">
          <Input
            className={cn(small, 'font-mono')}
            aria-label={`${label}: name ${i + 1}`}
            placeholder="client.city"
            value={name}
            onChange={(e) => change(replaced(rows, i, [e.target.value, text]))}
          />
          <span className="text-xs text-slate-400">=</span>
          <Input
            className={small}
            aria-label={`${label}: value ${i + 1}`}
            value={text}
            onChange={(e) => change(replaced(rows, i, [name, e.target.value]))}
          />
          <RemoveButton
            label={`Remove ${label.toLowerCase()} ${i + 1}`}
            onClick={() => change(without(rows, i))}
          />
        </div>
      ))}
      <AddButton label="Variable" onClick={() => setRows([...rows, ['', '']])} />
    </div>
  );
}
