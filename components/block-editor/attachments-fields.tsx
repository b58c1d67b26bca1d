'use client';

import { Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { ATTACHMENT_TYPES, type Attachment } from '@/lib/schema';
import type { FieldErrors } from '@/lib/schema/validate';
import { Section, useRowKeys } from './fields';

/** The block's attachments: type (image, video, link, file, audio) and URL; add and remove. */
export function AttachmentsFields({
  idPrefix,
  value,
  onChange,
  errors,
}: {
  idPrefix: string;
  value: Attachment[];
  onChange(value: Attachment[]): void;
  errors: FieldErrors;
}) {
  const rows = useRowKeys(value.length);
  const id = (i: number, name: string) => `${idPrefix}-attachment-${rows.keys[i]}-${name}`;
  const set = (i: number, patch: Partial<Attachment>) =>
    onChange(value.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  return (
    <Section
      title="Attachments"
      actions={
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            rows.add();
            onChange([...value, { type: 'image', url: '' }]);
          }}
        >
          <Plus className="size-3.5" aria-hidden /> Add attachment
        </Button>
      }
    >
      {value.map((attachment, i) => (
        <div key={rows.keys[i]} className="grid grid-cols-[6.5rem_1fr_auto] items-end gap-2">
          <Field id={id(i, 'type')} label={`Attachment ${i + 1} type`}>
            <Select
              id={id(i, 'type')}
              value={attachment.type}
              onChange={(e) => set(i, { type: e.target.value as Attachment['type'] })}
            >
              {ATTACHMENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </Select>
          </Field>
          <Field id={id(i, 'url')} label={`Attachment ${i + 1} URL`} error={errors[`attachments[${i}].url`]}>
            <Input
              id={id(i, 'url')}
              value={attachment.url}
              placeholder="https://…"
              aria-invalid={errors[`attachments[${i}].url`] ? true : undefined}
              onChange={(e) => set(i, { url: e.target.value })}
            />
          </Field>
          <button
            type="button"
            aria-label={`Remove attachment ${i + 1}`}
            title="Remove"
            onClick={() => {
              rows.remove(i);
              onChange(value.filter((_, j) => j !== i));
            }}
            className="mb-1 inline-flex size-7 items-center justify-center rounded text-slate-600 hover:bg-slate-100"
          >
            <X className="size-3.5" aria-hidden />
          </button>
        </div>
      ))}
    </Section>
  );
}
