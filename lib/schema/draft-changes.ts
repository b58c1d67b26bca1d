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
 * Others' changes applied to a draft that may hold one's own edits of the same fields (the
 * present, with edits not sent yet; an undo step): each such field is merged from the value both
 * started from (the change's `base`). Where the two cannot merge, `keepOwn` says whose stays:
 * one's own in the present (sent next, the other is told), theirs in an undo step.
 */
export function applyOthersChanges(
  schema: BotSchema,
  changes: readonly DraftChange[],
  keepOwn: boolean,
): BotSchema {
  const blocks = new Map<number, FieldValues>(schema.blocks.map((b) => [b.id, b]));
  const arrows = new Map<number, FieldValues>(schema.arrows.map((a) => [a.id, a]));
  const rebased = changes.map((change) => {
    const own = change.op === 'set' && (change.entity === 'block' ? blocks : arrows).get(change.id);
    if (!own || change.op !== 'set') return change;
    let fields = change.fields;
    for (const [field, theirs] of Object.entries(change.fields)) {
      const mine = own[field] ?? null;
      if (sameValue(mine, change.base[field])) continue;
      const merged = mergeField(field, change.base[field], mine, theirs);
      fields = { ...fields, [field]: merged.ok ? merged.value : keepOwn ? mine : theirs };
    }
    return fields === change.fields ? change : { ...change, fields };
  });
  return applyDraftChanges(schema, rebased);
}

/**
 * `changes` applied to a draft, in order, by the same rules as the server: a `set` on a block or
 * arrow that is gone is dropped, a deleted block takes its arrows with it. Unchanged blocks and
 * arrows stay the same objects (the canvas redraws only what changed).
 */
export function applyDraftChanges(schema: BotSchema, changes: readonly DraftChange[]): BotSchema {
  if (!changes.length) return schema;
  const blocks = new Map(schema.blocks.map((b) => [b.id, b]));
  const arrows = new Map(schema.arrows.map((a) => [a.id, a]));
  for (const change of changes) {
    const items = (change.entity === 'block' ? blocks : arrows) as Map<number, Block | Arrow>;
    if (change.op === 'add') items.set(change.id, change.value);
    else if (change.op === 'delete') items.delete(change.id);
    else {
      const current = items.get(change.id);
      if (current) items.set(change.id, withFields(current, change.fields));
    }
  }
  for (const [id, arrow] of arrows) if (!blocks.has(arrow.from) || !blocks.has(arrow.to)) arrows.delete(id);
  return { ...schema, blocks: sortedById(blocks), arrows: sortedById(arrows) };
}

const sortedById = <T extends { id: number }>(items: Map<number, T>): T[] =>
  [...items.values()].sort((a, b) => a.id - b.id);

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
