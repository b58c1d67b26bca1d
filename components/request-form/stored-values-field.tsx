'use client';

import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { parseStoredValues } from '@/lib/template';

/** Stored values (`path|0|key->variable; ...`), with the first bad phrase marked in a preview. */
export function StoredValuesField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
}) {
  const [bad] = error ? parseStoredValues(value).errors : [];
  return (
    <Field id={id} label="Stored values" hint="path|0|key->variable; other->variable2" error={error}>
      <Input
        id={id}
        value={value}
        className="font-mono text-xs"
        placeholder="data|0|id->order_id"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {bad ? (
        <p
          data-testid="stored-values-preview"
          className="rounded-md bg-slate-50 px-2 py-1.5 font-mono text-xs break-all text-slate-700"
        >
          {value.slice(0, bad.start)}
          <mark className="rounded bg-red-100 px-0.5 text-red-800">
            {value.slice(bad.start, bad.end) || ' '}
          </mark>
          {value.slice(bad.end)}
        </p>
      ) : null}
    </Field>
  );
}
