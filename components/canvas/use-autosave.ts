'use client';

import { TRPCClientError } from '@trpc/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '@/components/trpc/client';
import { type BotSchema, botSchemaSchema, describeFieldErrors, zodFieldErrors } from '@/lib/schema';
import { DraftSync, type RemoteChange } from '@/lib/schema/draft-sync';

export type { RemoteChange, ReplacedField } from '@/lib/schema/draft-sync';

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'error' | 'invalid' | 'conflict';
export interface SaveState {
  status: SaveStatus;
  message?: string;
}

export const CONFLICT_MESSAGE =
  'This bot was replaced in another tab or by someone else while you changed it. Reload to get the latest version — your last change was not saved.';

export const AUTOSAVE_DELAY_MS = 600;

/**
 * Saves the canvas's edits, debounced, through a DraftSync (changes per block and arrow and per
 * field, merged with others': docs/builder.md, "Working together"), and takes in others'
 * revisions when the live stream announces them (`announced`, from use-draft-events.ts). A whole
 * bot saved over a newer revision is refused (CONFLICT): then nothing more is sent until the
 * designer reloads.
 */
export function useAutosave({
  projectId,
  initialRevision,
  getSnapshot,
  onRemote,
  delayMs = AUTOSAVE_DELAY_MS,
}: {
  projectId: number;
  initialRevision: number;
  /** The schema to save now (the editor's committed present). */
  getSnapshot(): BotSchema;
  /** Others' changes (and ids the server gave instead of the canvas's) to apply to the canvas. */
  onRemote(change: RemoteChange): void;
  delayMs?: number;
}) {
  const client = useTRPCClient();
  const [state, setState] = useState<SaveState>({ status: 'saved' });
  const snapshot = useRef(getSnapshot);
  snapshot.current = getSnapshot;
  const remote = useRef(onRemote);
  remote.current = onRemote;
  const [sync] = useState(
    () =>
      new DraftSync(
        {
          change: (input) => client.botSchema.change.mutate({ projectId, ...input }),
          changesSince: (revision) => client.botSchema.changesSince.query({ projectId, revision }),
          load: () => client.botSchema.get.query({ projectId }),
          save: (schema, expectedRevision) =>
            client.botSchema.save.mutate({ projectId, schema, expectedRevision }),
        },
        { schema: getSnapshot(), revision: initialRevision },
        { present: () => snapshot.current(), onRemote: (change) => remote.current(change) },
      ),
  );
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const blocked = useRef(false);

  const pull = useCallback(async (): Promise<void> => {
    if (blocked.current) return;
    await sync.pull();
    if (sync.dirty && !timer.current) void flushRef.current();
  }, [sync]);

  const flush = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (blocked.current || sync.busy) return;
    if (!sync.dirty) {
      setState({ status: 'saved' });
      return;
    }
    const valid = botSchemaSchema.safeParse(snapshot.current());
    if (!valid.success) {
      setState({ status: 'invalid', message: describeFieldErrors(zodFieldErrors(valid.error)) });
      return;
    }
    setState({ status: 'saving' });
    try {
      await sync.flush();
    } catch (error) {
      if (error instanceof TRPCClientError && error.data?.code === 'CONFLICT') {
        blocked.current = true;
        setState({ status: 'conflict', message: CONFLICT_MESSAGE });
      } else {
        // No answer at all (not a refusal): offline until a request gets through.
        if (!(error instanceof TRPCClientError) || !error.data) sync.lostConnection();
        setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    // Edits made while the request was on its way are saved next.
    if (sync.dirty) void flushRef.current();
    else {
      setState({ status: 'saved' });
      if (sync.pullPending) void pull();
    }
  }, [sync, pull]);
  const flushRef = useRef(flush);
  flushRef.current = flush;

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

  /** The live stream announced a revision (none: it connected again, anything may have been missed). */
  const announced = useCallback(
    (revision: number | undefined) => {
      if (revision === undefined || revision > sync.revision) void pull();
    },
    [pull, sync],
  );

  // The browser went offline, then is back: read what was missed, then send what was made meanwhile
  // (the live stream may not have dropped, so its reconnection cannot be the only cue).
  useEffect(() => {
    const gone = () => sync.lostConnection();
    const back = () => void pull();
    window.addEventListener('offline', gone);
    window.addEventListener('online', back);
    return () => {
      window.removeEventListener('offline', gone);
      window.removeEventListener('online', back);
    };
  }, [sync, pull]);

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

  /** The live stream dropped: what comes in once it is back is told as a gap's when it was long. */
  const lost = useCallback(() => sync.lostConnection(), [sync]);

  return { state, schedule, flush, cancel, announced, lost };
}
