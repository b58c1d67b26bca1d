import type { Arrow, Block, BotSchema } from './bot-schema';
import {
  applyDraftChanges,
  applyOthersChanges,
  type DraftChange,
  diffDrafts,
  type IdRenames,
  MAX_DRAFT_CHANGES,
  renameInDraft,
} from './draft-changes';
import { sameValue } from './merge-values';

/** A revision someone made, as the server gives it; `changes` null: the whole bot was replaced. */
export interface Revision {
  author: string;
  changes: DraftChange[] | null;
}

/** How a canvas reaches the server (tRPC in the browser; the same procedures in tests). */
export interface DraftTransport {
  change(input: { changes: DraftChange[]; baseRevision: number }): Promise<{
    revision: number;
    renamed: IdRenames;
    missing: DraftChange[];
    others: Revision[] | null;
    /** The change as stored: new ids, the schema's defaults, without what is missing. */
    applied: DraftChange[];
  }>;
  changesSince(revision: number): Promise<{ revision: number; revisions: Revision[] | null }>;
  load(): Promise<{ schema: BotSchema; revision: number }>;
  /** The whole bot, refused (a conflict) over a revision newer than `expectedRevision`. */
  save(schema: BotSchema, expectedRevision: number): Promise<{ revision: number }>;
}

/** What others changed, as the canvas applies it to its present and to every undo step. */
export interface RemoteChange {
  /**
   * The draft as it was, with the others' changes: applied to the present and to each step of
   * the history. A field changed by both is merged; where it cannot be, `present` keeps one's own.
   */
  apply(schema: BotSchema, present: boolean): BotSchema;
  /** Each revision's author and changes, for the notices (a field of one's own replaced, a block deleted). */
  revisions: { author: string; changes: DraftChange[] }[];
  /** One's own changes the server could not apply: the blocks and arrows were deleted meanwhile. */
  missing: DraftChange[];
  /** Fields of one's own last changes that someone else changed after: whose, and one's own value. */
  replacedMine: ReplacedField[];
  /** How long this canvas had lost its connection before taking these in (0: it had not). */
  offlineMs: number;
  /** Whether this canvas has edits of its own made meanwhile (sent with these, or to be sent next). */
  editedOffline: boolean;
}

export interface ReplacedField {
  entity: DraftChange['entity'];
  id: number;
  field: string;
  by: string;
  mine: unknown;
}

const NO_RENAMES: IdRenames = { blocks: {}, arrows: {} };
const fieldKey = (entity: string, id: number, field: string) => `${entity}:${id}:${field}`;
const revisionsOf = (revisions: Revision[]) =>
  revisions.map((r) => ({ author: r.author, changes: r.changes ?? [] }));
const allChanges = (
  revisions: Revision[] | null,
): revisions is { author: string; changes: DraftChange[] }[] =>
  revisions?.every((r) => r.changes !== null) ?? false;

/**
 * A canvas's side of designing together (docs/builder.md, "Working together"), free of React:
 * it keeps the last draft known to be stored (`saved`) and its revision, sends the diff from it
 * to the present, and takes in what others changed (from a save's answer, or when a revision is
 * announced). One request at a time; a canvas and the server end with the same draft.
 */
export class DraftSync {
  revision: number;
  saved: BotSchema;
  private inFlight = false;
  /** A revision was announced while a request was on its way: read it after. */
  private pullAgain = false;
  /** The values this canvas last saved, per `entity:id:field`: a later change by someone else replaced them. */
  private readonly mine = new Map<string, unknown>();
  /**
   * Per `entity:id:field`, the value one's edit not sent yet started from, when others' change of
   * that field was taken in meanwhile: it is sent as the change's `base`, so the server merges the
   * two (a text character by character) rather than taking one's value as made over theirs.
   */
  private readonly startedFrom = new Map<string, unknown>();
  /** When the connection was lost, until a request gets through again. */
  private offlineSince: number | null = null;

  constructor(
    private readonly transport: DraftTransport,
    initial: { schema: BotSchema; revision: number },
    private readonly canvas: { present(): BotSchema; onRemote(change: RemoteChange): void },
    private readonly now: () => number = Date.now,
  ) {
    this.revision = initial.revision;
    this.saved = initial.schema;
  }

  /** The connection was lost (a request failed on the way, the live stream dropped). */
  lostConnection(at = this.now()) {
    this.offlineSince ??= at;
  }

  /** A request got through: how long the connection had been lost. */
  private backOnline(): number {
    const since = this.offlineSince;
    this.offlineSince = null;
    return since === null ? 0 : this.now() - since;
  }

  /** Whether the present has changes not stored yet. */
  get dirty(): boolean {
    return diffDrafts(this.saved, this.canvas.present()).length > 0;
  }

  get busy(): boolean {
    return this.inFlight;
  }

  /**
   * Sends the present's changes; false when a request is on its way already (the caller tries
   * again after it). Errors (the server's refusal, a lost connection) reach the caller, with
   * nothing taken in: the next flush sends the same changes again.
   */
  async flush(): Promise<boolean> {
    if (this.inFlight) return false;
    const present = this.canvas.present();
    const base = this.saved;
    const changes = present === base ? [] : this.withStartingValues(diffDrafts(base, present));
    if (!changes.length) {
      this.startedFrom.clear();
      return true;
    }
    this.inFlight = true;
    try {
      if (changes.length > MAX_DRAFT_CHANGES) {
        // The whole bot replaced (an import): one revision, refused over a newer one.
        this.revision = (await this.transport.save(present, this.revision)).revision;
        this.saved = present;
        return true;
      }
      const result = await this.transport.change({ changes, baseRevision: this.revision });
      const offlineMs = this.backOnline();
      this.startedFrom.clear();
      const applied = result.applied;
      this.remember(applied);
      const expected = renameInDraft(applyDraftChanges(base, changes), result.renamed);
      if (allChanges(result.others)) {
        const theirs = result.others.flatMap((r) => r.changes);
        const stored = applyDraftChanges(applyDraftChanges(base, theirs), applied);
        this.takeIn(expected, stored, result.renamed, revisionsOf(result.others), result.missing, {
          offlineMs,
          editedOffline: offlineMs > 0,
        });
        this.revision = result.revision;
      } else {
        const stored = await this.transport.load();
        this.takeIn(expected, stored.schema, result.renamed, [], result.missing, {
          offlineMs,
          editedOffline: offlineMs > 0,
        });
        this.revision = stored.revision;
      }
      return true;
    } finally {
      this.inFlight = false;
    }
  }

  /** Reads the revisions after this canvas's and applies them; false when it must be asked again. */
  async pull(): Promise<boolean> {
    if (this.inFlight) {
      this.pullAgain = true;
      return false;
    }
    this.pullAgain = false;
    this.inFlight = true;
    try {
      const since = await this.transport.changesSince(this.revision);
      const offlineMs = this.backOnline();
      if (since.revision <= this.revision) return true;
      const base = this.saved;
      const gap = { offlineMs, editedOffline: offlineMs > 0 && this.dirty };
      if (allChanges(since.revisions)) {
        const revisions = revisionsOf(since.revisions);
        const stored = applyDraftChanges(
          base,
          revisions.flatMap((r) => r.changes),
        );
        this.takeIn(base, stored, NO_RENAMES, revisions, [], gap, this.replacedOf(revisions));
        this.revision = since.revision;
      } else {
        const stored = await this.transport.load();
        this.takeIn(base, stored.schema, NO_RENAMES, [], [], gap);
        this.revision = stored.revision;
      }
      return true;
    } catch {
      // The next announcement (or the stream's reconnection) asks again.
      this.pullAgain = true;
      this.lostConnection();
      return false;
    } finally {
      this.inFlight = false;
    }
  }

  /** A pull was asked for while a request was on its way. */
  get pullPending(): boolean {
    return this.pullAgain;
  }

  /**
   * Brings `saved` to the stored draft: `expected` is what this canvas's own changes made of it,
   * `stored` the draft as it is now; their difference is the others' part, applied to the canvas.
   */
  private takeIn(
    expected: BotSchema,
    stored: BotSchema,
    renamed: IdRenames,
    revisions: RemoteChange['revisions'],
    missing: DraftChange[],
    gap: Pick<RemoteChange, 'offlineMs' | 'editedOffline'>,
    replacedMine: ReplacedField[] = [],
  ) {
    const others = diffDrafts(expected, stored);
    this.keepStartingValues(others);
    this.saved = stored;
    const renames = Object.keys(renamed.blocks).length + Object.keys(renamed.arrows).length;
    if (!others.length && !missing.length && !renames) return;
    const local = localRenames(renameInDraft(this.canvas.present(), renamed), expected, stored, others);
    this.canvas.onRemote({
      apply: (schema, present) =>
        applyOthersChanges(renameInDraft(renameInDraft(schema, renamed), local), others, present),
      revisions,
      missing,
      replacedMine,
      ...gap,
    });
  }

  /** The fields others changed that the present has edits of its own in, not sent yet: where those started. */
  private keepStartingValues(others: DraftChange[]) {
    const present = this.canvas.present();
    for (const change of others) {
      if (change.op !== 'set') continue;
      const list: readonly (Block | Arrow)[] = change.entity === 'block' ? present.blocks : present.arrows;
      const own = list.find((item) => item.id === change.id) as Record<string, unknown> | undefined;
      if (!own) continue;
      for (const field of Object.keys(change.fields)) {
        const key = fieldKey(change.entity, change.id, field);
        if (!this.startedFrom.has(key) && !sameValue(own[field] ?? null, change.base[field]))
          this.startedFrom.set(key, change.base[field]);
      }
    }
  }

  /** A change set with the values one's edits started from, where others changed those fields since. */
  private withStartingValues(changes: DraftChange[]): DraftChange[] {
    if (!this.startedFrom.size) return changes;
    return changes.map((change) => {
      if (change.op !== 'set') return change;
      const base = { ...change.base };
      for (const field of Object.keys(change.fields)) {
        const key = fieldKey(change.entity, change.id, field);
        if (this.startedFrom.has(key)) base[field] = this.startedFrom.get(key);
      }
      return { ...change, base };
    });
  }

  /** One's own saved field values, for telling when someone else's later change replaces them. */
  private remember(changes: DraftChange[]) {
    for (const change of changes)
      if (change.op === 'set')
        for (const [field, value] of Object.entries(change.fields))
          this.mine.set(fieldKey(change.entity, change.id, field), value);
  }

  /** The fields of one's own that these revisions changed to something else (each told once). */
  private replacedOf(revisions: RemoteChange['revisions']): ReplacedField[] {
    const out: ReplacedField[] = [];
    for (const { author, changes } of revisions)
      for (const change of changes) {
        if (change.op !== 'set') continue;
        for (const [field, value] of Object.entries(change.fields)) {
          const key = fieldKey(change.entity, change.id, field);
          if (!this.mine.has(key)) continue;
          const own = this.mine.get(key);
          this.mine.delete(key);
          // Replaced only when they had not seen it: not an edit made from one's own value
          // (theirs after it), nor one merged with it on the server.
          if (
            !sameValue(own, value) &&
            !sameValue(own, change.base[field]) &&
            !change.merged?.includes(field)
          )
            out.push({ entity: change.entity, id: change.id, field, by: author, mine: own });
        }
      }
    return out;
  }
}

/**
 * New ids for this canvas's blocks and arrows not stored yet whose ids others' changes add (both
 * took the same next id): theirs is stored, so this canvas's moves to an id above every one it
 * knows, as the server would have given it; the next save sends it under that id.
 */
function localRenames(
  present: BotSchema,
  expected: BotSchema,
  stored: BotSchema,
  others: DraftChange[],
): IdRenames {
  const renames: IdRenames = { blocks: {}, arrows: {} };
  const next = {
    block: Math.max(0, ...[present, expected, stored].flatMap((s) => s.blocks.map((b) => b.id))) + 1,
    arrow: Math.max(0, ...[present, expected, stored].flatMap((s) => s.arrows.map((a) => a.id))) + 1,
  };
  const known = {
    block: new Set(expected.blocks.map((b) => b.id)),
    arrow: new Set(expected.arrows.map((a) => a.id)),
  };
  const local = {
    block: new Set(present.blocks.map((b) => b.id).filter((id) => !known.block.has(id))),
    arrow: new Set(present.arrows.map((a) => a.id).filter((id) => !known.arrow.has(id))),
  };
  for (const change of others) {
    if (change.op !== 'add' || !local[change.entity].has(change.id)) continue;
    if (change.entity === 'block') renames.blocks[change.id] = next.block++;
    else renames.arrows[change.id] = next.arrow++;
  }
  return renames;
}
