'use client';

import { useCallback, useLayoutEffect, useRef } from 'react';
import { shiftOffset, textEdits } from '@/lib/schema/merge-values';

/**
 * Keeps a text field's cursor where the designer left it when its value changes from outside (a
 * colleague's edit merged in: docs/builder.md, "Working together"): the browser would put it at
 * the end. Returns the field's ref and a handler for its own changes and selections.
 */
export function useKeptCaret<E extends HTMLTextAreaElement | HTMLInputElement>(value: string) {
  const ref = useRef<E>(null);
  const last = useRef({ value, start: 0, end: 0 });
  const track = useCallback(() => {
    const field = ref.current;
    if (field)
      last.current = { value: field.value, start: field.selectionStart ?? 0, end: field.selectionEnd ?? 0 };
  }, []);
  useLayoutEffect(() => {
    const field = ref.current;
    const before = last.current;
    if (field && before.value !== value && document.activeElement === field) {
      const edits = textEdits(before.value, value);
      field.setSelectionRange(shiftOffset(edits, before.start), shiftOffset(edits, before.end));
    }
    track();
  }, [value, track]);
  return { ref, track };
}
