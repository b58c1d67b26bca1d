'use client';

import { useId } from 'react';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';

export interface FormulaFieldProps {
  value: string;
  onChange(value: string): void;
  label: string;
  /** Shown under the field (e.g. a schema error); the Monaco editor will add its own markers. */
  error?: string | null;
  hint?: string;
}

/**
 * SLOT: the block's formula. A plain monospace textarea for now; the Monaco editor with the
 * formula language mode (components/formula-editor) replaces it with the same props.
 */
export function FormulaField({ value, onChange, label, error, hint }: FormulaFieldProps) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <Textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        rows={Math.min(12, Math.max(3, value.split('\n').length + 1))}
        placeholder="price = round(base * 1.2, 2)"
        aria-invalid={error ? true : undefined}
        className="font-mono text-xs"
      />
    </Field>
  );
}
