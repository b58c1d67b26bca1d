'use client';

import { TRPCClientError } from '@trpc/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '@/components/trpc/client';
import { type BotSchema, botSchemaSchema, describeFieldErrors, zodFieldErrors } from '@/lib/schema';

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'error' | 'invalid' | 'conflict';
export interface SaveState {
  status: SaveStatus;
  message?: string;
}

export const CONFLICT_MESSAGE =
  'This bot was changed in another tab or by someone else. Reload to get the latest version — your last change was not saved.';

export const AUTOSAVE_DELAY_MS = 600;

/**
 * Saves the committed schema through botSchema.save, debounced, one request at a time, with
 * the last known revision: a save over someone else's newer revision is refused (CONFLICT) and
 * then nothing more is sent until the designer reloads, so their change is never silently lost
 * nor someone else's overwritten.
 */
export function useAutosave({
  projectId,
  initialRevision,
  getSnapshot,
  delayMs = AUTOSAVE_DELAY_MS,
}: {
  projectId: number;
  initialRevision: number;
  /** The schema to save now (the editor's committed present). */
  getSnapshot(): BotSchema;
  delayMs?: number;
}) {
  const client = useTRPCClient();
  const [state, setState] = useState<SaveState>({ status: 'saved' });
  const revision = useRef(initialRevision);
  const saved = useRef<BotSchema>(getSnapshot());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(false);
  const blocked = useRef(false);
  const snapshot = useRef(getSnapshot);
  snapshot.current = getSnapshot;

  const flush = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (blocked.current || inFlight.current) return;
    const schema = snapshot.current();
    if (schema === saved.current) {
      setState({ status: 'saved' });
      return;
    }
    const valid = botSchemaSchema.safeParse(schema);
    if (!valid.success) {
      setState({ status: 'invalid', message: describeFieldErrors(zodFieldErrors(valid.error)) });
      return;
    }
    inFlight.current = true;
    setState({ status: 'saving' });
    try {
      const result = await client.botSchema.save.mutate({
        projectId,
        schema,
        expectedRevision: revision.current,
      });
      revision.current = result.revision;
      saved.current = schema;
    } catch (error) {
      inFlight.current = false;
      if (error instanceof TRPCClientError && error.data?.code === 'CONFLICT') {
        blocked.current = true;
        setState({ status: 'conflict', message: CONFLICT_MESSAGE });
      } else {
        setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    inFlight.current = false;
    // Edits made while the request was on its way are saved next.
    if (snapshot.current() !== saved.current) void flush();
    else setState({ status: 'saved' });
  }, [client, projectId]);

  /** A change was committed: save it after the debounce delay. */
  const schedule = useCallback(() => {
    if (blocked.current) return;
    setState((s) => (s.status === 'saving' ? s : { status: 'dirty' }));
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), delayMs);
  }, [flush, delayMs]);

  /** Drops a pending save (before the editor is reloaded from the server). */
  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    blocked.current = true;
  }, []);

  // Warn before leaving the page with a change not yet saved.
  useEffect(() => {
    if (state.status === 'saved') return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [state.status]);

  // Leaving the canvas inside the app (another project page): save what is pending now.
  useEffect(
    () => () => {
      if (timer.current && !blocked.current) void flush();
    },
    [flush],
  );

  return { state, schedule, flush, cancel };
}
