import type { Arrow, Block, BlockKind, BotSchema } from '@/lib/schema';

/**
 * What changed between two bots (docs/versions.md, "Comparing versions"): blocks and arrows
 * matched by id (ids stay the same across versions), each change a field path with its value
 * before and after. A block only dragged elsewhere is "moved", listed apart, so a tidied-up
 * canvas does not bury the changes clients will notice.
 */

/** A side of a comparison: a version's number (0, the empty bot before version 1), or the draft. */
export type VersionSide = number | 'draft';

/** `the draft`, `version 3`, `the empty bot` (version 0), as messages and the history say it. */
export const versionSideLabel = (side: VersionSide) =>
  side === 'draft' ? 'the draft' : side === 0 ? 'the empty bot' : `version ${side}`;

/** One field that differs; a side where the field is absent has no value (undefined). */
export interface FieldChange {
  /** Where in the block or arrow, e.g. `text`, `buttons[1].text`, `trigger.alternatives`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

export interface BlockRef {
  id: number;
  name: string;
  kind: BlockKind;
}

export interface ChangedBlock extends BlockRef {
  changes: FieldChange[];
  /** Also moved on the canvas. */
  moved: boolean;
}

export interface MovedBlock extends BlockRef {
  before: { x: number; y: number };
  after: { x: number; y: number };
}

export interface ArrowRef {
  id: number;
  kind: Arrow['kind'];
  /** Its blocks' labels (`#3 Greeting`): ids alone say little to whoever reads the diff. */
  from: string;
  to: string;
}

export interface ChangedArrow extends ArrowRef {
  changes: FieldChange[];
}

export interface BotDiff {
  blocks: { added: BlockRef[]; removed: BlockRef[]; changed: ChangedBlock[]; moved: MovedBlock[] };
  arrows: { added: ArrowRef[]; removed: ArrowRef[]; changed: ChangedArrow[] };
  /** The bot's own fields besides its blocks and arrows (today only its format). */
  bot: FieldChange[];
}

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const fieldPath = (base: string, key: string) => (base ? `${base}.${key}` : key);

/**
 * The leaves that differ between two JSON values, by path. Key order does not count (PostgreSQL's
 * jsonb keeps a version's keys in its own order); lists are compared item by item; where one side
 * is absent or of another shape, the whole value is one change.
 */
export function jsonChanges(before: Json, after: Json, path = ''): FieldChange[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: FieldChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++)
      changes.push(...jsonChanges(before[i], after[i], `${path}[${i}]`));
    return changes;
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => jsonChanges(before[key], after[key], fieldPath(path, key)));
  }
  if (Object.is(before, after)) return [];
  return [
    {
      path,
      ...(before === undefined ? {} : { before }),
      ...(after === undefined ? {} : { after }),
    },
  ];
}

const blockRef = (block: Block): BlockRef => ({ id: block.id, name: block.name, kind: block.kind });

/** `#3 Greeting`, or `#3` for an untitled block, or `#3 (gone)` for one the bot does not have. */
export function blockLabel(id: number, blocks: ReadonlyMap<number, Block>): string {
  const block = blocks.get(id);
  if (!block) return `#${id} (gone)`;
  return block.name ? `#${id} ${block.name}` : `#${id}`;
}

const byId = <T extends { id: number }>(items: readonly T[]) => new Map(items.map((i) => [i.id, i]));
const ascending = (a: { id: number }, b: { id: number }) => a.id - b.id;

function diffBlocks(before: ReadonlyMap<number, Block>, after: ReadonlyMap<number, Block>) {
  const result: BotDiff['blocks'] = { added: [], removed: [], changed: [], moved: [] };
  for (const [id, old] of before) if (!after.has(id)) result.removed.push(blockRef(old));
  for (const [id, block] of after) {
    const old = before.get(id);
    if (!old) {
      result.added.push(blockRef(block));
      continue;
    }
    const { position: oldPosition, ...oldRest } = old;
    const { position, ...rest } = block;
    const moved = oldPosition.x !== position.x || oldPosition.y !== position.y;
    const changes = jsonChanges(oldRest, rest);
    if (changes.length) result.changed.push({ ...blockRef(block), changes, moved });
    else if (moved) result.moved.push({ ...blockRef(block), before: oldPosition, after: position });
  }
  for (const list of Object.values(result)) list.sort(ascending);
  return result;
}

function diffArrows(
  before: BotSchema,
  after: BotSchema,
  blocksBefore: ReadonlyMap<number, Block>,
  blocksAfter: ReadonlyMap<number, Block>,
) {
  const result: BotDiff['arrows'] = { added: [], removed: [], changed: [] };
  const ref = (arrow: Arrow, blocks: ReadonlyMap<number, Block>): ArrowRef => ({
    id: arrow.id,
    kind: arrow.kind,
    from: blockLabel(arrow.from, blocks),
    to: blockLabel(arrow.to, blocks),
  });
  const oldArrows = byId(before.arrows);
  const newArrows = byId(after.arrows);
  for (const [id, old] of oldArrows) if (!newArrows.has(id)) result.removed.push(ref(old, blocksBefore));
  for (const [id, arrow] of newArrows) {
    const old = oldArrows.get(id);
    if (!old) {
      result.added.push(ref(arrow, blocksAfter));
      continue;
    }
    const { from: oldFrom, to: oldTo, ...oldRest } = old;
    const { from, to, ...rest } = arrow;
    const ends: FieldChange[] = [];
    if (oldFrom !== from)
      ends.push({
        path: 'from',
        before: blockLabel(oldFrom, blocksBefore),
        after: blockLabel(from, blocksAfter),
      });
    if (oldTo !== to)
      ends.push({ path: 'to', before: blockLabel(oldTo, blocksBefore), after: blockLabel(to, blocksAfter) });
    const changes = [...ends, ...jsonChanges(oldRest, rest)];
    if (changes.length) result.changed.push({ ...ref(arrow, blocksAfter), changes });
  }
  for (const list of Object.values(result)) list.sort(ascending);
  return result;
}

/** What changed from `before` to `after`. */
export function diffBots(before: BotSchema, after: BotSchema): BotDiff {
  const blocksBefore = byId(before.blocks);
  const blocksAfter = byId(after.blocks);
  const { blocks: _b, arrows: _a, ...botBefore } = before;
  const { blocks: _c, arrows: _d, ...botAfter } = after;
  return {
    blocks: diffBlocks(blocksBefore, blocksAfter),
    arrows: diffArrows(before, after, blocksBefore, blocksAfter),
    bot: jsonChanges(botBefore, botAfter),
  };
}

/** How many of each, for the summary line; `total` leaves out blocks that only moved. */
export function diffCounts(diff: BotDiff) {
  const counts = {
    blocksAdded: diff.blocks.added.length,
    blocksRemoved: diff.blocks.removed.length,
    blocksChanged: diff.blocks.changed.length,
    blocksMoved: diff.blocks.moved.length,
    arrowsAdded: diff.arrows.added.length,
    arrowsRemoved: diff.arrows.removed.length,
    arrowsChanged: diff.arrows.changed.length,
    botChanged: diff.bot.length,
  };
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0) - counts.blocksMoved;
  return { ...counts, total };
}

/**
 * A value as the diff shows it: text as it is (a block's text reads as written, lines and all),
 * numbers as they are, yes/no, lists and objects as compact JSON; an absent one is "(none)", an
 * empty text "(empty)", so neither side of a change is ever blank.
 */
export function formatDiffValue(value: unknown): string {
  if (value === undefined) return '(none)';
  if (value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}
