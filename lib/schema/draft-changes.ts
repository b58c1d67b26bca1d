import { z } from 'zod';
import { type Arrow, type Block, type BotSchema, blockIdSchema } from './bot-schema';
import { type Merged, mergeValues, sameValue } from './merge-values';

/**
 * A change to a bot's draft, per block or arrow (docs/builder.md, "Working together"): what one
 * designer's edit sends, what the server stores and what the other designers' canvases apply.
 * `set` names only the top-level fields it changes, with the values it saw before (`base`), so
 * two designers changing different fields of one block both keep theirs, and a designer whose
 * field someone else changed meanwhile is told. A field set to `null` is removed (an optional
 * field left empty). A field both changed is merged where the changes do not touch the same
 * parts (a text character by character, `merge-values.ts`); a stored change names such fields in
 * `merged`, so no one is told their change was replaced.
 */
export type DraftChange =
  | { entity: 'block'; op: 'add'; id: number; value: Block }
  | { entity: 'arrow'; op: 'add'; id: number; value: Arrow }
  | { entity: DraftEntity; op: 'set'; id: number; fields: FieldValues; base: FieldValues; merged?: string[] }
  | { entity: DraftEntity; op: 'delete'; id: number };

export type DraftEntity = 'block' | 'arrow';
export type FieldValues = Record<string, unknown>;

/** The fields a change may set: every field of a block or an arrow but its id. */
export const BLOCK_FIELDS = [
  'kind',
  'name',
  'position',
  'size',
  'trigger',
  'text',
  'attachments',
  'buttons',
  'formula',
  'request',
  'actions',
  'ai',
  'input',
] as const satisfies readonly Exclude<keyof Block, 'id'>[];

export const ARROW_FIELDS = [
  'from',
  'to',
  'kind',
  'condition',
  'timer',
  'cancelOtherTimers',
  'cancelIfLeft',
  'collectInto',
  'showAsButton',
  'request',
  'description',
  'inputExit',
] as const satisfies readonly Exclude<keyof Arrow, 'id'>[];

const FIELDS: Record<DraftEntity, ReadonlySet<string>> = {
  block: new Set(BLOCK_FIELDS),
  arrow: new Set(ARROW_FIELDS),
};

/** At most this many changes in one request: a whole bot replaced goes through `save` instead. */
export const MAX_DRAFT_CHANGES = 2_000;

const entitySchema = z.enum(['block', 'arrow']);
const fieldValuesSchema = z.record(z.string(), z.unknown());

/**
 * The boundary's check of a change's shape. The values themselves are checked once merged (a
 * block's `set` is only whole with the stored block), by the block and arrow schemas.
 */
export const draftChangeSchema = z
  .discriminatedUnion('op', [
    z.object({ entity: entitySchema, op: z.literal('add'), id: blockIdSchema, value: z.looseObject({}) }),
    z.object({
      entity: entitySchema,
      op: z.literal('set'),
      id: blockIdSchema,
      fields: fieldValuesSchema,
      base: fieldValuesSchema,
    }),
    z.object({ entity: entitySchema, op: z.literal('delete'), id: blockIdSchema }),
  ])
  .superRefine((change, ctx) => {
    if (change.op !== 'set') return;
    const known = FIELDS[change.entity];
    for (const field of Object.keys(change.fields))
      if (!known.has(field))
        ctx.addIssue({
          code: 'custom',
          path: ['fields', field],
          message: `a ${change.entity} has no field "${field}" (it has ${[...known].join(', ')})`,
        });
  }) as unknown as z.ZodType<DraftChange>;

export const draftChangesSchema = z.array(draftChangeSchema).max(MAX_DRAFT_CHANGES);

function fieldsOf<T extends object>(value: T, fields: readonly string[]): FieldValues {
  const out: FieldValues = {};
  for (const field of fields) out[field] = (value as FieldValues)[field] ?? null;
  return out;
}

/** The changes that turn `before` into `after`, per block and arrow and per field. */
export function diffDrafts(before: BotSchema, after: BotSchema): DraftChange[] {
  return [
    ...diffEntities('block', before.blocks, after.blocks, BLOCK_FIELDS),
    ...diffEntities('arrow', before.arrows, after.arrows, ARROW_FIELDS),
  ];
}

function diffEntities<T extends Block | Arrow>(
  entity: DraftEntity,
  before: readonly T[],
  after: readonly T[],
  fields: readonly string[],
): DraftChange[] {
  const old = new Map(before.map((item) => [item.id, item]));
  const out: DraftChange[] = [];
  const kept = new Set<number>();
  for (const item of after) {
    const was = old.get(item.id);
    kept.add(item.id);
    if (!was) {
      out.push({ entity, op: 'add', id: item.id, value: item } as DraftChange);
      continue;
    }
    // The editor replaces what it changes: an untouched block is the same object.
    if (was === item) continue;
    const now = fieldsOf(item, fields);
    const then = fieldsOf(was, fields);
    const changed = fields.filter((field) => !sameValue(now[field], then[field]));
    if (!changed.length) continue;
    out.push({
      entity,
      op: 'set',
      id: item.id,
      fields: Object.fromEntries(changed.map((field) => [field, now[field]])),
      base: Object.fromEntries(changed.map((field) => [field, then[field]])),
    });
  }
  for (const item of before) if (!kept.has(item.id)) out.push({ entity, op: 'delete', id: item.id });
  return out;
}

/** `fields` written over `value`: a `null` removes an optional field. */
export function withFields<T extends object>(value: T, fields: FieldValues): T {
  const next: FieldValues = { ...(value as FieldValues) };
  for (const [field, v] of Object.entries(fields)) {
    if (v === null) delete next[field];
    else next[field] = v;
  }
  return next as T;
}

/** Fields that are one value: a block placed by two people goes where one of them put it. */
const WHOLE_FIELDS: ReadonlySet<string> = new Set(['position', 'size']);

/** A field both changed from `base`, merged (merge-values.ts), but for the fields that are one value. */
export const mergeField = (field: string, base: unknown, mine: unknown, theirs: unknown): Merged =>
  mergeValues(base, mine, theirs, WHOLE_FIELDS.has(field));

/**
 * Others' changes applied to a draft that may hold one's own edits of the same fields. The
 * present keeps its edits not sent yet as they are: they are sent with the value they started
 * from and the server merges them (DraftSync, `startedFrom`), so every canvas takes in the one
 * merged value. An undo step merges each such field from the value both started from (the
 * change's `base`), or takes theirs where the two cannot merge, so Undo takes back one's own.
 */
export function applyOthersChanges(
  schema: BotSchema,
  changes: readonly DraftChange[],
  present: boolean,
): BotSchema {
  const sets = (entity: DraftEntity) => changes.filter((c) => c.entity === entity && c.op === 'set');
  const own = (entity: DraftEntity, list: readonly (Block | Arrow)[]) =>
    new Map([...indexOfIds(list, sets(entity))].map(([id, index]) => [id, list[index] as FieldValues]));
  const blocks = own('block', schema.blocks);
  const arrows = own('arrow', schema.arrows);
  const rebased = changes.map((change) => {
    const own = change.op === 'set' && (change.entity === 'block' ? blocks : arrows).get(change.id);
    if (!own || change.op !== 'set') return change;
    let fields = change.fields;
    for (const [field, theirs] of Object.entries(change.fields)) {
      const mine = own[field] ?? null;
      if (sameValue(mine, change.base[field])) continue;
      const merged = present ? null : mergeField(field, change.base[field], mine, theirs);
      fields = { ...fields, [field]: merged === null ? mine : merged.ok ? merged.value : theirs };
    }
    return fields === change.fields ? change : { ...change, fields };
  });
  return applyDraftChanges(schema, rebased);
}

/**
 * `changes` applied to a draft, in order, by the same rules as the server: a `set` on a block or
 * arrow that is gone is dropped, a deleted block takes its arrows with it. Unchanged blocks and
 * arrows stay the same objects (the canvas redraws only what changed). Its cost is a pass over
 * the lists, not a map of them: a colleague's edit is applied to each of up to 200 undo steps.
 */
export function applyDraftChanges(schema: BotSchema, changes: readonly DraftChange[]): BotSchema {
  if (!changes.length) return schema;
  const blockChanges = changes.filter((c) => c.entity === 'block');
  const arrowChanges = changes.filter((c) => c.entity === 'arrow');
  const blocks = applyToList(schema.blocks, blockChanges);
  let arrows = applyToList(schema.arrows, arrowChanges);
  // The blocks gone at the end (a delete not followed by an add of the same id).
  const deleted = new Set<number>();
  for (const c of blockChanges)
    if (c.op === 'delete') deleted.add(c.id);
    else if (c.op === 'add') deleted.delete(c.id);
  const placed = new Set(arrowChanges.filter((c) => c.op !== 'delete').map((c) => c.id));
  if (deleted.size || placed.size) {
    // An arrow goes with a deleted block; one added or moved must end on blocks that are there.
    const ids = placed.size ? new Set(blocks.map((b) => b.id)) : null;
    arrows = arrows.filter((a) =>
      ids && placed.has(a.id) ? ids.has(a.from) && ids.has(a.to) : !deleted.has(a.from) && !deleted.has(a.to),
    );
  }
  return { ...schema, blocks, arrows };
}

/** Where the items of these ids are, found in one pass. */
function indexOfIds(items: readonly { id: number }[], changes: readonly DraftChange[]): Map<number, number> {
  const wanted = new Set(changes.map((c) => c.id));
  const found = new Map<number, number>();
  if (wanted.size)
    for (let i = 0; i < items.length; i++) if (wanted.has(items[i].id)) found.set(items[i].id, i);
  return found;
}

/** A list with one entity's changes applied in order, sorted by id. */
function applyToList<T extends Block | Arrow>(items: readonly T[], changes: readonly DraftChange[]): T[] {
  if (!changes.length) return items as T[];
  const at = indexOfIds(items, changes);
  // Each touched id's value at the end (undefined: gone).
  const after = new Map<number, T | undefined>();
  for (const change of changes) {
    const index = at.get(change.id);
    const current = after.has(change.id)
      ? after.get(change.id)
      : index === undefined
        ? undefined
        : items[index];
    if (change.op === 'add') after.set(change.id, change.value as T);
    else if (change.op === 'delete') after.set(change.id, undefined);
    else after.set(change.id, current && withFields(current, change.fields));
  }
  // Only fields set (a colleague's usual edit): the same list with those items replaced.
  if (changes.every((c) => c.op === 'set')) {
    const out = items.slice();
    for (const [id, index] of at) out[index] = after.get(id) as T;
    return out;
  }
  const out: T[] = [];
  for (const item of items) {
    if (!after.has(item.id)) out.push(item);
    else {
      const value = after.get(item.id);
      if (value) out.push(value);
    }
  }
  let sorted = true;
  for (const [id, value] of after)
    if (value && !at.has(id)) {
      sorted &&= !out.length || (out.at(-1) as T).id < id;
      out.push(value);
    }
  for (let i = 1; sorted && i < out.length; i++) sorted = out[i - 1].id < out[i].id;
  return sorted ? out : out.sort((a, b) => a.id - b.id);
}

/** The ids a change set's new blocks and arrows were given instead of the ones asked (taken meanwhile). */
export interface IdRenames {
  blocks: Record<number, number>;
  arrows: Record<number, number>;
}

/** A change set with new ids given to blocks and arrows added under ids someone else took first. */
export function renameIds(changes: readonly DraftChange[], renames: IdRenames): DraftChange[] {
  const block = (id: number) => renames.blocks[id] ?? id;
  const arrow = (id: number) => renames.arrows[id] ?? id;
  const ends = <T extends object>(value: T): T => ({
    ...value,
    ...('from' in value ? { from: block(value.from as number) } : {}),
    ...('to' in value ? { to: block(value.to as number) } : {}),
  });
  return changes.map((change) => {
    const id = change.entity === 'block' ? block(change.id) : arrow(change.id);
    if (change.op === 'delete') return { ...change, id };
    if (change.op === 'add')
      return change.entity === 'block'
        ? { ...change, id, value: { ...change.value, id } }
        : { ...change, id, value: ends({ ...change.value, id }) };
    return change.entity === 'arrow' ? { ...change, id, fields: ends(change.fields) } : { ...change, id };
  });
}

/** A draft with the renamed blocks and arrows under their new ids (an undo step, the last saved draft). */
export function renameInDraft(schema: BotSchema, renames: IdRenames): BotSchema {
  const blockIds = Object.keys(renames.blocks).length;
  if (!blockIds && !Object.keys(renames.arrows).length) return schema;
  const block = (id: number) => renames.blocks[id] ?? id;
  return {
    ...schema,
    blocks: schema.blocks.map((b) => (renames.blocks[b.id] ? { ...b, id: block(b.id) } : b)),
    arrows: schema.arrows.map((a) =>
      renames.arrows[a.id] || renames.blocks[a.from] || renames.blocks[a.to]
        ? { ...a, id: renames.arrows[a.id] ?? a.id, from: block(a.from), to: block(a.to) }
        : a,
    ),
  };
}
