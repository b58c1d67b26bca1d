'use client';

import { type FormEvent, type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { connectFields } from '@/lib/channels/connect-inputs';

type Values = Record<string, string>;

/**
 * A connect form's values, starting from its schema's (lib/channels/connect-inputs.ts), or from
 * `start` where given (a connected channel's settings being changed).
 */
export function useConnectValues<S extends z.ZodObject>(schema: S, start: Partial<Values> = {}) {
  const initial = () =>
    Object.fromEntries(connectFields(schema).map((f) => [f.key, start[f.key] ?? f.initial])) as Values;
  const [values, setValues] = useState(initial);
  // Sent as typed: the server parses them with the same schema and names a wrong field.
  return { values, input: values as unknown as z.input<S>, setValues, reset: () => setValues(initial()) };
}

/**
 * The form of one way of connecting a channel, rendered from its schema: a text (or password)
 * input per field, radio buttons for a choice, a checkbox for an on/off setting, each with its hint and its own error (the server
 * names the field); any other error above the button. `children` go after the fields.
 */
export function ConnectForm({
  name,
  idPrefix,
  schema,
  values,
  setValues,
  onSubmit,
  pending,
  error,
  submitLabel,
  pendingLabel = 'Connecting…',
  children,
}: {
  name: string;
  idPrefix: string;
  schema: z.ZodObject;
  values: Values;
  setValues: (update: (values: Values) => Values) => void;
  onSubmit: () => void;
  pending: boolean;
  error: { message: string; data?: { field?: string | null; fieldErrors?: unknown } | null } | null;
  submitLabel: string;
  /** The button's label while the form is being sent. */
  pendingLabel?: string;
  children?: ReactNode;
}) {
  const fields = connectFields(schema);
  const errorField = error?.data?.field ?? null;
  const fieldErrors = error?.data?.fieldErrors as Partial<Record<string, string[]>> | undefined;
  const errorOf = (key: string) =>
    fieldErrors?.[key]?.[0] ?? (errorField === key ? (error?.message ?? null) : null);
  const set = (key: string, value: string) => setValues((v) => ({ ...v, [key]: value }));
  return (
    <form
      className="space-y-3"
      aria-label={name}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {fields.map(({ key, meta, optional }) =>
        meta.checkbox ? (
          <div key={key} className="space-y-1 text-sm">
            <label className="flex items-center gap-2 font-medium text-slate-700">
              <input
                type="checkbox"
                id={`${idPrefix}-${key}`}
                checked={values[key] === 'true'}
                onChange={(e) => set(key, e.target.checked ? 'true' : 'false')}
              />
              {meta.label}
            </label>
            {meta.hint && !errorOf(key) ? <p className="text-xs text-slate-500">{meta.hint}</p> : null}
            {errorOf(key) ? (
              <p id={`${idPrefix}-${key}-error`} role="alert" className="text-xs text-red-600">
                {errorOf(key)}
              </p>
            ) : null}
          </div>
        ) : meta.options ? (
          <fieldset key={key} className="space-y-1 text-sm">
            <legend className="font-medium text-slate-700">{meta.label}</legend>
            {Object.entries(meta.options).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${idPrefix}-${key}`}
                  checked={values[key] === value}
                  onChange={() => set(key, value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
        ) : (
          <Field
            key={key}
            id={`${idPrefix}-${key}`}
            label={optional ? `${meta.label} (optional)` : meta.label}
            hint={meta.hint}
            error={errorOf(key)}
          >
            <Input
              id={`${idPrefix}-${key}`}
              value={values[key] ?? ''}
              type={meta.secret ? 'password' : 'text'}
              placeholder={meta.placeholder}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set(key, e.target.value)}
            />
          </Field>
        ),
      )}
      {children}
      {error && !fields.some((f) => errorOf(f.key)) ? <Alert tone="error">{error.message}</Alert> : null}
      <Button type="submit" disabled={pending || fields.some((f) => !f.optional && !values[f.key]?.trim())}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </form>
  );
}
