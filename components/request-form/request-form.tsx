'use client';

import { CheckboxField } from '@/components/block-editor/fields';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { type BlockRequest, REQUEST_TYPES } from '@/lib/schema';
import type { FieldErrors } from '@/lib/schema/validate';
import { appendStoredValue, variableForPath } from '@/lib/template';
import { RequestTester } from './request-tester';
import { StoredValuesField } from './stored-values-field';

export interface RequestFormProps {
  value: BlockRequest | undefined;
  onChange(value: BlockRequest | undefined): void;
  /** Unique prefix for the fields' ids. */
  idPrefix: string;
  /** Errors of the request's fields (validate.ts), keyed `url`, `headers`, `params`, `storedValues`. */
  errors?: FieldErrors;
  /** "Block request" or "Condition request". */
  title?: string;
}

const emptyRequest = (): BlockRequest => ({
  type: 'GET',
  url: '',
  headers: '',
  params: '',
  storedValues: '',
  checkParamsFormat: true,
});

const typeLabels = {
  GET: 'GET',
  'POST-data': 'POST-data (form fields)',
  'POST-json': 'POST-json (JSON body)',
} as const;

/**
 * A block or condition request (platform-interface, "Block requests"): method, URL, headers,
 * JSON parameters with the format check, stored values, and a test run through the server.
 */
export function RequestForm({
  value,
  onChange,
  idPrefix,
  errors = {},
  title = 'Block request',
}: RequestFormProps) {
  const id = (name: string) => `${idPrefix}-request-${name}`;
  const set = (patch: Partial<BlockRequest>) => value && onChange({ ...value, ...patch });
  const error = (name: keyof BlockRequest) => errors[name] ?? null;
  const invalid = (name: keyof BlockRequest) =>
    error(name) ? { 'aria-invalid': true, 'aria-describedby': `${id(name)}-error` } : {};
  const pick = (path: string) =>
    value &&
    set({
      storedValues: appendStoredValue(value.storedValues, path, variableForPath(path, value.storedValues)),
    });
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
          <Field id={id('type')} label="Method">
            <Select
              id={id('type')}
              value={value.type}
              onChange={(e) => set({ type: e.target.value as BlockRequest['type'] })}
            >
              {REQUEST_TYPES.map((t) => (
                <option key={t} value={t}>
                  {typeLabels[t]}
                </option>
              ))}
            </Select>
          </Field>
          <Field
            id={id('url')}
            label="Request URL"
            hint="GET parameters go after ?, e.g. ?id=#{id}&q=#{question}"
            error={error('url')}
          >
            <Input
              id={id('url')}
              value={value.url}
              placeholder="https://example.com/api?id=#{id}"
              spellCheck={false}
              {...invalid('url')}
              onChange={(e) => set({ url: e.target.value })}
            />
          </Field>
          <Field id={id('headers')} label="Headers (JSON)" error={error('headers')}>
            <Textarea
              id={id('headers')}
              value={value.headers}
              rows={2}
              spellCheck={false}
              placeholder='{"Authorization": "Bearer #{token}"}'
              className="font-mono text-xs"
              {...invalid('headers')}
              onChange={(e) => set({ headers: e.target.value })}
            />
          </Field>
          {value.type === 'GET' ? null : (
            <>
              <Field
                id={id('params')}
                label="JSON parameters"
                hint={
                  value.type === 'POST-json' ? 'Sent as the JSON body' : 'Each key is sent as a form field'
                }
                error={error('params')}
              >
                <Textarea
                  id={id('params')}
                  value={value.params}
                  rows={3}
                  spellCheck={false}
                  placeholder='{"name": "#{name}"}'
                  className="font-mono text-xs"
                  {...invalid('params')}
                  onChange={(e) => set({ params: e.target.value })}
                />
              </Field>
              <CheckboxField
                id={id('check')}
                label="Check the JSON format of the parameters"
                checked={value.checkParamsFormat}
                onChange={(checkParamsFormat) => set({ checkParamsFormat })}
              />
              {value.checkParamsFormat ? null : (
                <p className="-mt-2 text-xs text-slate-500">
                  Not checked: a variable without quotes, like {'{"count": #{count}}'}, is sent as a number.
                </p>
              )}
            </>
          )}
          <StoredValuesField
            id={id('stored')}
            value={value.storedValues}
            error={error('storedValues')}
            onChange={(storedValues) => set({ storedValues })}
          />
          <RequestTester request={value} onPick={pick} />
        </>
      ) : null}
    </div>
  );
}
