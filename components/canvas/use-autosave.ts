'use client';

import { TRPCClientError } from '@trpc/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '@/components/trpc/client';
import { type BotSchema, botSchemaSchema, describeFieldErrors, zodFieldErrors } from '@/lib/schema';
import {
  applyDraftChanges,
  type DraftChange,
  diffDrafts,
  type IdRenames,
  MAX_DRAFT_CHANGES,
  renameIds,
  renameInDraft,
  sameChange,
  sameValue,
} from '@/lib/schema/draft-changes';

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'error' | 'invalid' | 'conflict';
export interface SaveState {
  status: SaveStatus;
  message?: string;
}

export const CONFLICT_MESSAGE =
  'This bot was replaced in another tab or by someone else while you changed it. Reload to get the latest version — your last change was not saved.';

export const AUTOSAVE_DELAY_MS = 600;

/** What others changed, as the canvas applies it to its present and to every undo step. */
export interface RemoteChange {
  /** The draft as it was, with the others' changes: applied to each step of the history. */
  apply(schema: BotSchema): BotSchema;
  /** Each revision's author and changes, for the notices (a field of one's own replaced, a block deleted). */
  revisions: { author: string; changes: DraftChange[] }[];
  /** One's own changes the server could not apply: the blocks and arrows were deleted meanwhile. */
  missing: DraftChange[];
  /** Fields of one's own last changes that someone else changed after: whose, and one's own value. */
  replacedMine: ReplacedField[];
}

export interface ReplacedField {
  entity: DraftChange['entity'];
  id: number;
  field: string;
  by: string;
  mine: unknown;
}

const NO_RENAMES: IdRenames = { blocks: {}, arrows: {} };

/**
 * Saves the canvas's edits as changes per block and arrow and per field (docs/builder.md,
 * "Working together"), debounced, one request at a time, and takes in what other designers
 * changed meanwhile: from the answer to a save, and when the live stream says there is a new
 * revision (`announced`, from use-draft-events.ts). The last draft known to be stored (`saved`)
 * is what the next save is a diff from.
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
  const revision = useRef(initialRevision);
  const saved = useRef<BotSchema>(getSnapshot());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(false);
  const blocked = useRef(false);
  /** A new revision was announced while a request was on its way: read it after. */
  const pullAgain = useRef(false);
  const pullRef = useRef(async () => {});
  const snapshot = useRef(getSnapshot);
  snapshot.current = getSnapshot;
  const remote = useRef(onRemote);
  remote.current = onRemote;
  /** The values this canvas last saved, per `entity:id:field`: a later change by someone else replaced them. */
  const mine = useRef(new Map<string, unknown>());

  /**
   * Brings `saved` to the stored draft: `expected` is what this canvas's own changes made of it,
   * `stored` the draft as it is now; their difference is the others' part, applied to the canvas.
   */
  const takeIn = useCallback(
    (
      expected: BotSchema,
      stored: BotSchema,
      renamed: IdRenames,
      revisions: RemoteChange['revisions'],
      missing: DraftChange[],
      replacedMine: ReplacedField[] = [],
    ) => {
      const others = diffDrafts(expected, stored);
      saved.current = stored;
      if (
        !others.length &&
        !missing.length &&
        !Object.keys(renamed.blocks).length &&
        !Object.keys(renamed.arrows).length
      )
        return;
      remote.current({
        apply: (schema) => applyDraftChanges(renameInDraft(schema, renamed), others),
        revisions,
        missing,
        replacedMine,
      });
    },
    [],
  );

  /** The stored draft, read whole: a revision replaced the bot, or this canvas is too far behind. */
  const readStored = useCallback(async () => {
    const stored = await client.botSchema.get.query({ projectId });
    return stored;
  }, [client, projectId]);

  const flush = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (blocked.current || inFlight.current) return;
    const schema = snapshot.current();
    const base = saved.current;
    const changes = schema === base ? [] : diffDrafts(base, schema);
    if (!changes.length) {
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
      if (changes.length > MAX_DRAFT_CHANGES) {
        // The whole bot replaced (an import): one revision, refused over a newer one.
        const result = await client.botSchema.save.mutate({
          projectId,
          schema,
          expectedRevision: revision.current,
        });
        revision.current = result.revision;
        saved.current = schema;
      } else {
        const result = await client.botSchema.change.mutate({
          projectId,
          changes,
          baseRevision: revision.current,
        });
        const applied = renameIds(changes, result.renamed).filter(
          (change) => !result.missing.some((m) => sameChange(m, change)),
        );
        const expected = renameInDraft(applyDraftChanges(base, changes), result.renamed);
        remember(mine.current, applied);
        const others = result.others;
        if (others?.every((r) => r.changes)) {
          const theirs = others.flatMap((r) => r.changes ?? []);
          const stored = applyDraftChanges(applyDraftChanges(base, theirs), applied);
          takeIn(expected, stored, result.renamed, revisionsOf(others), result.missing);
          revision.current = result.revision;
        } else {
          const stored = await readStored();
          takeIn(expected, stored.schema, result.renamed, [], result.missing);
          revision.current = stored.revision;
        }
      }
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
    if (diffDrafts(saved.current, snapshot.current()).length) void flush();
    else {
      setState({ status: 'saved' });
      if (pullAgain.current) void pullRef.current();
    }
  }, [client, projectId, takeIn, readStored]);

  /** Reads the revisions after this canvas's and applies them (the live stream said there are some). */
  const pull = useCallback(async (): Promise<void> => {
    if (blocked.current) return;
    if (inFlight.current) {
      pullAgain.current = true;
      return;
    }
    pullAgain.current = false;
    inFlight.current = true;
    try {
      const since = await client.botSchema.changesSince.query({ projectId, revision: revision.current });
      if (since.revision > revision.current) {
        const base = saved.current;
        if (since.revisions?.every((r) => r.changes)) {
          const theirs = since.revisions.flatMap((r) => r.changes ?? []);
          const revisions = revisionsOf(since.revisions);
          takeIn(
            base,
            applyDraftChanges(base, theirs),
            NO_RENAMES,
            revisions,
            [],
            replacedOf(mine.current, revisions),
          );
          revision.current = since.revision;
        } else {
          const stored = await readStored();
          takeIn(base, stored.schema, NO_RENAMES, [], []);
          revision.current = stored.revision;
        }
      }
    } catch {
      // The next announcement (or the stream's reconnection) asks again.
      pullAgain.current = true;
    } finally {
      inFlight.current = false;
    }
    if (diffDrafts(saved.current, snapshot.current()).length && !timer.current) void flush();
  }, [client, projectId, takeIn, readStored, flush]);
  pullRef.current = pull;

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

  /** The live stream announced a revision (none: it connected again, anything may have been missed). */
  const announced = useCallback(
    (announcedRevision: number | undefined) => {
      if (announcedRevision === undefined || announcedRevision > revision.current) void pull();
    },
    [pull],
  );

  return { state, schedule, flush, cancel, announced };
}

const fieldKey = (entity: string, id: number, field: string) => `${entity}:${id}:${field}`;

/** One's own saved field values, for telling when someone else's later change replaces them. */
function remember(mine: Map<string, unknown>, changes: DraftChange[]) {
  for (const change of changes)
    if (change.op === 'set')
      for (const [field, value] of Object.entries(change.fields))
        mine.set(fieldKey(change.entity, change.id, field), value);
}

/** The fields of one's own that these revisions changed to something else (each told once). */
function replacedOf(mine: Map<string, unknown>, revisions: RemoteChange['revisions']): ReplacedField[] {
  const out: ReplacedField[] = [];
  for (const { author, changes } of revisions)
    for (const change of changes) {
      if (change.op !== 'set') continue;
      for (const [field, value] of Object.entries(change.fields)) {
        const key = fieldKey(change.entity, change.id, field);
        if (!mine.has(key)) continue;
        const own = mine.get(key);
        mine.delete(key);
        if (!sameValue(own, value))
          out.push({ entity: change.entity, id: change.id, field, by: author, mine: own });
      }
    }
  return out;
}

const revisionsOf = (revisions: { author: string; changes: DraftChange[] | null }[]) =>
  revisions.map((r) => ({ author: r.author, changes: r.changes ?? [] }));
