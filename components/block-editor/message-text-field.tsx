'use client';

import { Fragment } from 'react';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { useKeptCaret } from '@/components/ui/use-kept-caret';

/** Splits text into plain parts and `#{...}` placeholders. */
export function splitPlaceholders(text: string): { text: string; placeholder: boolean }[] {
  return text
    .split(/(#\{[^}]*\}?)/)
    .filter(Boolean)
    .map((part) => ({ text: part, placeholder: part.startsWith('#{') }));
}

/** The message text, with a preview below that highlights its `#{...}` substitutions. */
export function MessageTextField({
  id,
  label = 'Text',
  value,
  onChange,
  error,
}: {
  id: string;
  label?: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
}) {
  const parts = splitPlaceholders(value);
  const caret = useKeptCaret<HTMLTextAreaElement>(value);
  return (
    <Field id={id} label={label} error={error} hint="#{variable} is replaced when the message is sent">
      <Textarea
        id={id}
        value={value}
        rows={Math.min(10, Math.max(3, value.split('\n').length + 1))}
        aria-invalid={error ? true : undefined}
        ref={caret.ref}
        onSelect={caret.track}
        onChange={(e) => {
          caret.track();
          onChange(e.target.value);
        }}
      />
      {parts.some((p) => p.placeholder) ? (
        <p
          data-testid="text-preview"
          title="Text with substitutions highlighted"
          className="rounded-md bg-slate-50 px-2 py-1.5 text-xs whitespace-pre-line text-slate-700"
        >
          {parts.map((part, i) =>
            part.placeholder ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one string, in order
              <mark key={i} className="rounded bg-sky-100 px-0.5 font-mono text-sky-800">
                {part.text}
              </mark>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one string, in order
              <Fragment key={i}>{part.text}</Fragment>
            ),
          )}
        </p>
      ) : null}
    </Field>
  );
}
