'use client';

import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { type BlockRequest, REQUEST_TYPES } from '@/lib/schema';
import { CheckboxField } from './fields';
import { type FieldErrors, requestJsonIssues } from './validate';

export interface BlockRequestFieldsProps {
  value: BlockRequest | undefined;
  onChange(value: BlockRequest | undefined): void;
  /** Unique prefix for the fields' ids. */
  idPrefix: string;
  /** Errors of the request's fields, keyed `url`, `headers`, … */
  errors?: FieldErrors;
  /** "Block request" or "Condition request". */
  title?: string;
}

export const emptyRequest = (): BlockRequest => ({
  type: 'GET',
  url: '',
  headers: '',
  params: '',
  storedValues: '',
  checkParamsFormat: true,
});

/**
 * SLOT: the block request form (method, URL, headers JSON, JSON parameters, stored values).
 * Headers and parameters are checked with JSON.parse, the error shown at the field. The full
 * request form with "test request" (components/request-form) can replace it with the same props.
 */
export function BlockRequestFields({
  value,
  onChange,
  idPrefix,
  errors = {},
  title = 'Block request',
}: BlockRequestFieldsProps) {
  const id = (name: string) => `${idPrefix}-request-${name}`;
  const json = requestJsonIssues(value);
  const set = (patch: Partial<BlockRequest>) => value && onChange({ ...value, ...patch });
  const error = (name: keyof BlockRequest) => json[name] ?? errors[name] ?? null;
  return (
    <div className="space-y-3">
      <CheckboxField
        id={id('enabled')}
        label={`Send a ${title.toLowerCase()}`}
        checked={value !== undefined}
        onChange={(on) => onChange(on ? emptyRequest() : undefined)}
      />
      {value ? (
        <>
          <div className="grid grid-cols-[7rem_1fr] gap-2">
            <Field id={id('type')} label="Method">
              <Select
                id={id('type')}
                value={value.type}
                onChange={(e) => set({ type: e.target.value as BlockRequest['type'] })}
              >
                {REQUEST_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id={id('url')} label="Request URL" error={error('url')}>
              <Input
                id={id('url')}
                value={value.url}
                placeholder="https://example.com/api?id=#{id}"
                aria-invalid={error('url') ? true : undefined}
                onChange={(e) => set({ url: e.target.value })}
              />
            </Field>
          </div>
          <Field id={id('headers')} label="Headers (JSON)" error={error('headers')}>
            <Textarea
              id={id('headers')}
              value={value.headers}
              rows={2}
              spellCheck={false}
              placeholder='{"Authorization": "Bearer #{token}"}'
              aria-invalid={error('headers') ? true : undefined}
              className="font-mono text-xs"
              onChange={(e) => set({ headers: e.target.value })}
            />
          </Field>
          <Field id={id('params')} label="JSON parameters" error={error('params')}>
            <Textarea
              id={id('params')}
              value={value.params}
              rows={3}
              spellCheck={false}
              placeholder='{"name": "#{name}"}'
              aria-invalid={error('params') ? true : undefined}
              className="font-mono text-xs"
              onChange={(e) => set({ params: e.target.value })}
            />
          </Field>
          <CheckboxField
            id={id('check')}
            label="Check the JSON format of the parameters"
            checked={value.checkParamsFormat}
            onChange={(checkParamsFormat) => set({ checkParamsFormat })}
          />
          <Field
            id={id('stored')}
            label="Stored values"
            hint="path|0|key->variable; other->variable2"
            error={error('storedValues')}
          >
            <Input
              id={id('stored')}
              value={value.storedValues}
              className="font-mono text-xs"
              placeholder="data|0|id->order_id"
              onChange={(e) => set({ storedValues: e.target.value })}
            />
          </Field>
        </>
      ) : null}
    </div>
  );
}
