import {
  type Arrow,
  arrowSchema,
  type Block,
  BOT_SCHEMA_FORMAT,
  type BotSchema,
  blockSchema,
  callbackDataIssues,
  describeFieldErrors,
  type FieldError,
  formatPath,
  LIMITS,
  TRIGGER_KINDS,
  zodFieldErrors,
} from '@/lib/schema';
import {
  type DraftChange,
  draftChangesSchema,
  type IdRenames,
  mergeField,
  renameIds,
  withFields,
} from '@/lib/schema/draft-changes';
import { sameValue } from '@/lib/schema/merge-values';
import type { PrismaClient } from '@/server/db/client-type';
import { Prisma } from '@/server/db/generated/client';
import { lockProjectRow } from '@/server/db/row-queries';
import { DomainError, invalid } from '@/server/errors';
import { publishLive } from '@/server/live/live-events';
import { arrowFromRow, arrowToRow, BOT_WRITE_TRANSACTION, blockFromRow, blockToRow } from './bot-rows';
import { botSchemaContentErrors } from './validate-bot-schema';

/** Who made a change, as the other designers are told. */
export interface DraftAuthor {
  id: string | null;
  name: string;
}

/** A change made by no member (the CLI, a file imported by a script). */
export const NO_AUTHOR: DraftAuthor = { id: null, name: '' };

/** A revision of the draft someone else made, as a canvas applies it; `changes` null: reload. */
export interface DraftRevision {
  revision: number;
  author: string;
  changes: DraftChange[] | null;
}

export interface DraftChangeResult {
  revision: number;
  /** New ids given to added blocks and arrows whose ids someone else took first. */
  renamed: IdRenames;
  /** Fields this change wrote over someone else's change made since the caller's revision. */
  replaced: { entity: DraftChange['entity']; id: number; field: string; theirs: unknown; by: string }[];
  /** Changes to blocks or arrows that are gone (deleted meanwhile): not applied. */
  missing: DraftChange[];
  /** What others changed after the caller's revision, before this change; null: too far behind, reload. */
  others: DraftRevision[] | null;
  /** This change as it was stored (new ids, the schema's defaults; without what is `missing`). */
  applied: DraftChange[];
}

/** The named fields of a stored block or arrow, `null` for one it does not have. */
const fieldsOf = (value: Block | Arrow, fields: string[]) =>
  Object.fromEntries(fields.map((field) => [field, (value as Record<string, unknown>)[field] ?? null]));

/** Change rows are kept this long; a canvas further behind reloads the bot. */
export const DRAFT_CHANGES_KEEP_HOURS = 24;

/**
 * Applies one designer's changes to the draft (docs/builder.md, "Working together"): each
 * block and arrow is written on its own, field by field, over what is stored now, so changes of
 * other blocks or other fields made meanwhile stay. One transaction, with the project row locked,
 * so change sets apply one after another, each a revision of its own.
 */
export async function applyDraftChanges(
  db: PrismaClient,
  projectId: number,
  input: { changes: unknown; baseRevision: number },
  author: DraftAuthor,
): Promise<DraftChangeResult> {
  const parsed = draftChangesSchema.safeParse(input.changes);
  if (!parsed.success)
    throw invalid(
      `The change was not saved:\n${describeFieldErrors(prefixed('changes', zodFieldErrors(parsed.error)))}`,
    );
  const result = await db.$transaction(async (tx) => {
    const project = await lockProjectRow(tx, projectId);
    if (!project) throw new DomainError('not_found', `Project ${projectId} does not exist.`);
    const others = await revisionsAfter(tx, projectId, input.baseRevision, project.schemaRevision);
    const state = await loadTouched(tx, projectId, parsed.data);
    const renamed = allocateIds(parsed.data, state, project);
    const changes = renameIds(parsed.data, renamed);
    const applied: DraftChange[] = [];
    const missing: DraftChange[] = [];
    const replaced: DraftChangeResult['replaced'] = [];
    const errors: FieldError[] = [];
    for (const change of changes) {
      const items = (change.entity === 'block' ? state.blocks : state.arrows) as Map<
        number,
        Block | Arrow | null
      >;
      if (change.op === 'delete') {
        if (items.get(change.id)) applied.push(change);
        items.set(change.id, null);
        continue;
      }
      const current = items.get(change.id);
      if (change.op === 'set' && !current) {
        missing.push(change);
        continue;
      }
      const own = change.op === 'set' ? mergeWithStored(change, current as Block | Arrow) : null;
      const next =
        change.op === 'add'
          ? change.value
          : withFields(current as Block | Arrow, own?.fields ?? change.fields);
      const checked = checkEntity(change.entity, next);
      if (!checked.ok) {
        errors.push(...checked.errors);
        continue;
      }
      for (const field of own?.replaced ?? [])
        replaced.push({
          entity: change.entity,
          id: change.id,
          field,
          theirs: (current as Record<string, unknown>)[field] ?? null,
          by: lastAuthorOf(others, change.entity, change.id, field),
        });
      items.set(change.id, checked.value);
      // As stored: the schema's defaults filled in, so every canvas applies the same values.
      applied.push(
        change.op === 'add'
          ? ({ ...change, value: checked.value } as DraftChange)
          : {
              ...change,
              fields: fieldsOf(checked.value, Object.keys(change.fields)),
              ...(own?.merged.length ? { merged: own.merged } : {}),
            },
      );
    }
    if (errors.length) throw invalid(`The change was not saved:\n${describeFieldErrors(errors)}`);
    // An arrow whose block is gone (deleted meanwhile, or in this change) is not written.
    const kept = await withExistingEnds(tx, projectId, state, applied, missing);
    if (!kept.length)
      return {
        revision: project.schemaRevision,
        renamed,
        replaced,
        missing,
        others,
        applied: kept,
        wrote: false,
      };
    await writeChanges(tx, projectId, state, kept);
    await refuseOverLimits(tx, projectId, kept);
    const revision = project.schemaRevision + 1;
    await tx.project.update({
      where: { id: projectId },
      data: {
        schemaRevision: revision,
        nextBlockId: Math.max(project.nextBlockId, ...addedIds(kept, 'block').map((id) => id + 1)),
        nextArrowId: Math.max(project.nextArrowId, ...addedIds(kept, 'arrow').map((id) => id + 1)),
      },
    });
    await recordDraftChange(tx, projectId, revision, author, kept);
    return { revision, renamed, replaced, missing, others, applied: kept, wrote: true };
  }, BOT_WRITE_TRANSACTION);
  const { wrote, ...answer } = result;
  if (wrote) publishLive([{ kind: 'bot', projectId, revision: answer.revision }]);
  return answer;
}

/**
 * The revision's row, that the other canvases read; `changes` null when the whole bot was
 * replaced. Rows older than DRAFT_CHANGES_KEEP_HOURS are pruned now and then.
 */
export async function recordDraftChange(
  tx: Prisma.TransactionClient,
  projectId: number,
  revision: number,
  author: DraftAuthor,
  changes: DraftChange[] | null,
): Promise<void> {
  await tx.draftChange.create({
    data: {
      projectId,
      revision,
      authorId: author.id,
      authorName: author.name,
      changes: changes === null ? Prisma.DbNull : (changes as unknown as Prisma.InputJsonValue),
    },
  });
  if (revision % 100 === 0)
    await tx.draftChange.deleteMany({
      where: { projectId, createdAt: { lt: new Date(Date.now() - DRAFT_CHANGES_KEEP_HOURS * 3_600_000) } },
    });
}

/** The revisions after `after` up to `upTo`, oldest first; null when some are no longer kept. */
export async function revisionsAfter(
  db: Prisma.TransactionClient | PrismaClient,
  projectId: number,
  after: number,
  upTo: number,
): Promise<DraftRevision[] | null> {
  if (after >= upTo) return [];
  const rows = await db.draftChange.findMany({
    where: { projectId, revision: { gt: after, lte: upTo } },
    orderBy: { revision: 'asc' },
    select: { revision: true, authorName: true, changes: true },
  });
  if (rows.length !== upTo - after) return null;
  return rows.map((row) => ({
    revision: row.revision,
    author: row.authorName,
    changes: row.changes === null ? null : (row.changes as unknown as DraftChange[]),
  }));
}

function prefixed(lead: string, errors: FieldError[]): FieldError[] {
  return errors.map((e) => ({
    ...e,
    field: e.field ? `${lead}${e.field.startsWith('[') ? '' : '.'}${e.field}` : lead,
  }));
}

/** The stored rows of every block and arrow a change set names; null for one that does not exist. */
interface Touched {
  blocks: Map<number, Block | null>;
  arrows: Map<number, Arrow | null>;
}

async function loadTouched(
  tx: Prisma.TransactionClient,
  projectId: number,
  changes: DraftChange[],
): Promise<Touched> {
  const ids = (entity: DraftChange['entity']) => [
    ...new Set(changes.filter((c) => c.entity === entity).map((c) => c.id)),
  ];
  const [blockRows, arrowRows] = await Promise.all([
    tx.block.findMany({ where: { projectId, id: { in: ids('block') } } }),
    tx.arrow.findMany({ where: { projectId, id: { in: ids('arrow') } } }),
  ]);
  const blocks = new Map<number, Block | null>(ids('block').map((id) => [id, null]));
  const arrows = new Map<number, Arrow | null>(ids('arrow').map((id) => [id, null]));
  for (const row of blockRows) blocks.set(row.id, blockFromRow(row));
  for (const row of arrowRows) arrows.set(row.id, arrowFromRow(row));
  return { blocks, arrows };
}

/**
 * New ids for blocks and arrows added under an id that exists or was ever given (two designers
 * adding at once pick the same next id): ids are never reused, integrators keep them.
 */
function allocateIds(
  changes: DraftChange[],
  state: Touched,
  project: { nextBlockId: number; nextArrowId: number },
): IdRenames {
  const renamed: IdRenames = { blocks: {}, arrows: {} };
  let nextBlock = Math.max(project.nextBlockId, ...addedIds(changes, 'block').map((id) => id + 1));
  let nextArrow = Math.max(project.nextArrowId, ...addedIds(changes, 'arrow').map((id) => id + 1));
  for (const change of changes) {
    if (change.op !== 'add') continue;
    const taken = (change.entity === 'block' ? state.blocks : state.arrows).get(change.id);
    if (!taken) continue;
    if (change.entity === 'block') renamed.blocks[change.id] = nextBlock++;
    else renamed.arrows[change.id] = nextArrow++;
  }
  for (const id of Object.values(renamed.blocks)) state.blocks.set(id, null);
  for (const id of Object.values(renamed.arrows)) state.arrows.set(id, null);
  return renamed;
}

const addedIds = (changes: DraftChange[], entity: DraftChange['entity']) =>
  changes.filter((c) => c.op === 'add' && c.entity === entity).map((c) => c.id);

type Checked = { ok: true; value: Block | Arrow } | { ok: false; errors: FieldError[] };

/** A block or arrow as it would be stored: its schema, its buttons' data, its formulas and templates. */
function checkEntity(entity: DraftChange['entity'], value: Block | Arrow): Checked {
  const owner = `${entity} ${value.id}`;
  const result = (entity === 'block' ? blockSchema : arrowSchema).safeParse(value);
  if (!result.success)
    return {
      ok: false,
      errors: zodFieldErrors(result.error).map((e) => ({ ...e, field: `${owner}, ${e.field}` })),
    };
  const errors: FieldError[] =
    entity === 'block'
      ? callbackDataIssues((result.data as Block).buttons).map(({ path, message }) => ({
          field: `${owner}, ${formatPath(['buttons', ...path])}`,
          message,
        }))
      : [];
  const single: BotSchema =
    entity === 'block'
      ? { format: BOT_SCHEMA_FORMAT, blocks: [result.data as Block], arrows: [] }
      : { format: BOT_SCHEMA_FORMAT, blocks: [], arrows: [result.data as Arrow] };
  errors.push(...botSchemaContentErrors(single));
  return errors.length ? { ok: false, errors } : { ok: true, value: result.data };
}

/**
 * A `set`'s fields over what is stored now: a field someone else changed since the caller's
 * `base` is merged with theirs (a text character by character); where the two cannot merge,
 * the caller's value wins and the field is `replaced` (the other designer is told).
 */
function mergeWithStored(
  change: Extract<DraftChange, { op: 'set' }>,
  current: Block | Arrow,
): { fields: Record<string, unknown>; merged: string[]; replaced: string[] } {
  const fields = { ...change.fields };
  const merged: string[] = [];
  const replaced: string[] = [];
  for (const field of Object.keys(change.fields)) {
    const theirs = (current as Record<string, unknown>)[field] ?? null;
    if (sameValue(theirs, change.base[field])) continue;
    const result = mergeField(field, change.base[field], change.fields[field], theirs);
    if (!result.ok) replaced.push(field);
    else {
      fields[field] = result.value;
      merged.push(field);
    }
  }
  return { fields, merged, replaced };
}

/** The person whose revision last set this field, for "replaced …'s change". */
function lastAuthorOf(
  others: DraftRevision[] | null,
  entity: DraftChange['entity'],
  id: number,
  field: string,
): string {
  for (const revision of [...(others ?? [])].reverse())
    for (const change of revision.changes ?? [])
      if (
        change.entity === entity &&
        change.id === id &&
        (change.op === 'add' || (change.op === 'set' && field in change.fields))
      )
        return revision.author;
  return '';
}

/**
 * The applied changes without the arrows whose ends are gone (moved to `missing`): an arrow
 * added or moved to a block deleted meanwhile, by someone else or in this change.
 */
async function withExistingEnds(
  tx: Prisma.TransactionClient,
  projectId: number,
  state: Touched,
  applied: DraftChange[],
  missing: DraftChange[],
): Promise<DraftChange[]> {
  const ends = new Set<number>();
  for (const change of applied) {
    if (change.entity !== 'arrow' || change.op === 'delete') continue;
    const arrow = state.arrows.get(change.id);
    if (arrow) for (const end of [arrow.from, arrow.to]) if (!state.blocks.has(end)) ends.add(end);
  }
  const stored = ends.size
    ? new Set(
        (await tx.block.findMany({ where: { projectId, id: { in: [...ends] } }, select: { id: true } })).map(
          (b) => b.id,
        ),
      )
    : new Set<number>();
  const exists = (id: number) => (state.blocks.has(id) ? state.blocks.get(id) != null : stored.has(id));
  return applied.filter((change) => {
    if (change.entity !== 'arrow' || change.op === 'delete') return true;
    const arrow = state.arrows.get(change.id);
    if (arrow && exists(arrow.from) && exists(arrow.to)) return true;
    missing.push(change);
    state.arrows.set(change.id, null);
    return false;
  });
}

/**
 * Each block and arrow written as it is now. Arrows are deleted and moved first, then the
 * deleted blocks take the arrows still touching them (including one someone else drew to them
 * meanwhile, but not one this change moved elsewhere); then what is added.
 */
async function writeChanges(
  tx: Prisma.TransactionClient,
  projectId: number,
  state: Touched,
  changes: DraftChange[],
) {
  const ids = (entity: DraftChange['entity'], op: DraftChange['op']) =>
    changes.filter((c) => c.entity === entity && c.op === op).map((c) => c.id);
  const blocks = (list: number[]) => list.map((id) => state.blocks.get(id) as Block);
  const arrows = (list: number[]) => list.map((id) => state.arrows.get(id) as Arrow);
  const deletedArrows = ids('arrow', 'delete');
  if (deletedArrows.length) await tx.arrow.deleteMany({ where: { projectId, id: { in: deletedArrows } } });
  for (const arrow of arrows(ids('arrow', 'set'))) {
    const { projectId: _p, id, ...data } = arrowToRow(projectId, arrow);
    await tx.arrow.update({ where: { projectId_id: { projectId, id } }, data });
  }
  const deletedBlocks = ids('block', 'delete');
  if (deletedBlocks.length) {
    await tx.arrow.deleteMany({
      where: { projectId, OR: [{ fromId: { in: deletedBlocks } }, { toId: { in: deletedBlocks } }] },
    });
    await tx.block.deleteMany({ where: { projectId, id: { in: deletedBlocks } } });
  }
  const addedBlocks = blocks(ids('block', 'add'));
  if (addedBlocks.length)
    await tx.block.createMany({ data: addedBlocks.map((b) => blockToRow(projectId, b)) });
  for (const block of blocks(ids('block', 'set'))) {
    const { projectId: _p, id, ...data } = blockToRow(projectId, block);
    await tx.block.update({
      where: { projectId_id: { projectId, id } },
      data: withDbNulls(data, ['trigger', 'buttons', 'request', 'actions', 'ai', 'input']),
    });
  }
  const addedArrows = arrows(ids('arrow', 'add'));
  if (addedArrows.length)
    await tx.arrow.createMany({ data: addedArrows.map((a) => arrowToRow(projectId, a)) });
}

/** Optional JSON columns an update clears: Prisma leaves a column alone when given undefined. */
function withDbNulls<T extends Record<string, unknown>>(data: T, columns: string[]): T {
  const out: Record<string, unknown> = { ...data };
  for (const column of columns) if (out[column] === undefined) out[column] = Prisma.DbNull;
  return out as T;
}

/** The bot's limits, counted once the change is written (only when it adds blocks or changes kinds). */
async function refuseOverLimits(tx: Prisma.TransactionClient, projectId: number, changes: DraftChange[]) {
  const counts = changes.some(
    (c) => c.entity === 'block' && (c.op === 'add' || (c.op === 'set' && 'kind' in c.fields)),
  );
  if (!counts) return;
  const [blocks, triggers] = await Promise.all([
    tx.block.count({ where: { projectId } }),
    tx.block.count({ where: { projectId, kind: { in: [...TRIGGER_KINDS] } } }),
  ]);
  if (blocks > LIMITS.blocks)
    throw invalid(
      `The change was not saved: a bot has at most ${LIMITS.blocks} blocks (this one would have ${blocks}).`,
    );
  if (triggers > LIMITS.triggerBlocks)
    throw invalid(
      `The change was not saved: at most ${LIMITS.triggerBlocks} start and not_state_condition blocks per bot (this one would have ${triggers}).`,
    );
}
