import { type Arrow, arrowSchema, type Block, blockSchema } from '@/lib/schema';
import type { Prisma } from '@/server/db/generated/client';

/** The draft's block and arrow rows and the bot schema's blocks and arrows, each way. */

type BlockRow = Prisma.BlockGetPayload<object>;
type ArrowRow = Prisma.ArrowGetPayload<object>;

/**
 * Absent optional fields are left out rather than set to undefined: superjson sends a path for
 * every undefined value, about a third of a big bot's response.
 */
export function blockFromRow(row: BlockRow): Block {
  return blockSchema.parse({
    id: row.id,
    kind: row.kind,
    name: row.name,
    position: { x: row.x, y: row.y },
    ...(row.width && row.height ? { size: { width: row.width, height: row.height } } : {}),
    ...(row.trigger != null ? { trigger: row.trigger } : {}),
    text: row.text,
    attachments: row.attachments,
    ...(row.buttons != null ? { buttons: row.buttons } : {}),
    formula: row.formula,
    ...(row.request != null ? { request: row.request } : {}),
    ...(row.actions != null ? { actions: row.actions } : {}),
    ...(row.ai != null ? { ai: row.ai } : {}),
    ...(row.input != null ? { input: row.input } : {}),
  });
}

export function arrowFromRow(row: ArrowRow): Arrow {
  return arrowSchema.parse({
    ...(row.settings as object),
    id: row.id,
    from: row.fromId,
    to: row.toId,
    kind: row.kind,
  });
}

export function blockToRow(projectId: number, block: Block): Prisma.BlockCreateManyInput {
  return {
    projectId,
    id: block.id,
    kind: block.kind,
    name: block.name,
    x: block.position.x,
    y: block.position.y,
    width: block.size?.width ?? null,
    height: block.size?.height ?? null,
    trigger: block.trigger ?? undefined,
    text: block.text,
    attachments: block.attachments,
    buttons: block.buttons ?? undefined,
    formula: block.formula,
    request: block.request ?? undefined,
    actions: block.actions ?? undefined,
    ai: block.ai ?? undefined,
    input: block.input ?? undefined,
  };
}

export function arrowToRow(projectId: number, arrow: Arrow): Prisma.ArrowCreateManyInput {
  const { id, from, to, kind, ...settings } = arrow;
  return { projectId, id, fromId: from, toId: to, kind, settings: settings as Prisma.InputJsonObject };
}

/**
 * A whole bot written or snapshotted in one transaction: a bot of 5,000 blocks takes seconds on
 * a loaded machine, past Prisma's default 5 s (the save then failed with nothing saved).
 */
export const BOT_WRITE_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };
