'use client';

import { createContext, use, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { FieldErrors, Validated } from '@/lib/schema/validate';

/**
 * Where editor forms report the fields whose edit is held back (invalid, so not in the schema
 * and not saved): the canvas toolbar's save state counts them. Keyed by form, 0 when none.
 */
export const HeldBackContext = createContext<(form: string, fields: number) => void>(() => {});

/**
 * The editor form's draft of one block or arrow. What the designer types stays in the draft;
 * it reaches `onChange` (and so the schema, history and autosave) only when `validate` passes.
 */
export function useValidatedDraft<T>(
  initial: T,
  validate: (draft: T) => Validated<T>,
  onChange: (value: T, field: string) => void,
) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const latest = useRef(draft);
  const form = useId();
  const report = use(HeldBackContext);
  const held = Object.keys(errors).length;
  useEffect(() => report(form, held), [report, form, held]);
  useEffect(() => () => report(form, 0), [report, form]);
  const edit = useCallback(
    (next: T, field: string) => {
      latest.current = next;
      setDraft(next);
      const result = validate(next);
      if (result.ok) {
        setErrors({});
        onChange(result.value, field);
      } else setErrors(result.errors);
    },
    [validate, onChange],
  );
  return { draft, errors, edit, latest };
}

/**
 * A key that changes when the edited value changes from outside the form (undo, redo, a drag, a
 * paste) rather than from the form's own emit: the form then remounts on the new value.
 */
export function useExternalVersion<T>(value: T) {
  const emitted = useRef<T | null>(null);
  const seen = useRef(value);
  const version = useRef(0);
  if (value !== seen.current) {
    if (value !== emitted.current) version.current++;
    seen.current = value;
  }
  const markEmitted = useCallback((v: T) => {
    emitted.current = v;
  }, []);
  return { version: version.current, markEmitted };
}
