'use client';

import { createContext, use, useCallback, useEffect, useId, useRef, useState } from 'react';
import { sameValue } from '@/lib/schema/merge-values';
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
  // The value changed from outside without a remount (useExternalVersion's live fields): the
  // draft takes in what changed, but not over an edit of one's own held back (invalid).
  const [seen, setSeen] = useState(initial);
  if (initial !== seen) {
    setSeen(initial);
    const next = takenIn(draft, seen, initial);
    if (next !== draft) {
      latest.current = next;
      setDraft(next);
    }
  }
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

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

/** The top-level fields that differ between two values. */
const changedFields = (before: Fields, after: Fields) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => !sameValue(before[k], after[k]),
  );

/** `draft` with the fields that changed from `before` to `after`, where the draft still had `before`'s. */
function takenIn<T>(draft: T, before: T, after: T): T {
  if (!isFields(draft) || !isFields(before) || !isFields(after)) return draft;
  const taken = changedFields(before, after).filter(
    (k) => sameValue(draft[k], before[k]) && !sameValue(draft[k], after[k]),
  );
  if (!taken.length) return draft;
  const next: Fields = { ...draft };
  for (const k of taken) {
    if (after[k] === undefined) delete next[k];
    else next[k] = after[k];
  }
  return next as T;
}

/**
 * A key that changes when the edited value changes from outside the form (undo, redo, a paste)
 * rather than from the form's own emit: the form then remounts on the new value. A change of
 * `liveFields` only (a colleague's text or formula merged in, the block moved) does not remount
 * it: the form's draft takes it in, so the field being typed in keeps its focus and cursor.
 */
export function useExternalVersion<T>(value: T, liveFields: readonly string[] = []) {
  const emitted = useRef<T | null>(null);
  const seen = useRef(value);
  const version = useRef(0);
  if (value !== seen.current) {
    const live =
      liveFields.length > 0 &&
      isFields(value) &&
      isFields(seen.current) &&
      changedFields(seen.current, value).every((k) => liveFields.includes(k));
    if (value !== emitted.current && !live) version.current++;
    seen.current = value;
  }
  const markEmitted = useCallback((v: T) => {
    emitted.current = v;
  }, []);
  return { version: version.current, markEmitted };
}
