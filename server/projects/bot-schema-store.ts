import {
  type Arrow,
  arrowSchema,
  type Block,
  BOT_SCHEMA_FORMAT,
  type BotSchema,
  blockSchema,
  describeFieldErrors,
  parseBotSchema,
} from '@/lib/schema';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { lockProjectRow } from '@/server/db/row-queries';
import { DomainError, invalid } from '@/server/errors';
import { loadTests, replaceTests } from './bot-test-store';

/**
 * Reads a project's bot schema from its block and arrow rows, in the JSON format of lib/schema;
 * `withTests`, its conversation tests too (a file, a version; the builder and the engine need
 * none of them). A bot without tests has no `tests` key, so its file is as it was before them.
 */
export async function loadBotSchema(
  db: Db,
  projectId: number,
  options: { withTests?: boolean } = {},
): Promise<{ schema: BotSchema; revision: number }> {
  const [project, blocks, arrows, tests] = await Promise.all([
    db.project.findUniqueOrThrow({ where: { id: projectId }, select: { schemaRevision: true } }),
    db.block.findMany({ where: { projectId }, orderBy: { id: 'asc' } }),
    db.arrow.findMany({ where: { projectId }, orderBy: { id: 'asc' } }),
    options.withTests ? loadTests(db, projectId) : [],
  ]);
  return {
    revision: project.schemaRevision,
    schema: {
      format: BOT_SCHEMA_FORMAT,
      blocks: blocks.map(blockFromRow),
      arrows: arrows.map(arrowFromRow),
      ...(tests.length ? { tests } : {}),
    },
  };
}

type BlockRow = Prisma.BlockGetPayload<object>;
type ArrowRow = Prisma.ArrowGetPayload<object>;

/**
 * Absent optional fields are left out rather than set to undefined: superjson sends a path for
 * every undefined value, about a third of a big bot's response.
 */
function blockFromRow(row: BlockRow): Block {
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

function arrowFromRow(row: ArrowRow): Arrow {
  return arrowSchema.parse({
    ...(row.settings as object),
    id: row.id,
    from: row.fromId,
    to: row.toId,
    kind: row.kind,
  });
}

function blockToRow(projectId: number, block: Block): Prisma.BlockCreateManyInput {
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

function arrowToRow(projectId: number, arrow: Arrow): Prisma.ArrowCreateManyInput {
  const { id, from, to, kind, ...settings } = arrow;
  return { projectId, id, fromId: from, toId: to, kind, settings: settings as Prisma.InputJsonObject };
}

/**
 * Replaces the draft's blocks and arrows with a checked schema's (inside the caller's
 * transaction, which also moves the project's revision and next ids). A schema without tests
 * (the builder's saves) leaves them; one with tests replaces them.
 */
export async function replaceBotRows(
  tx: Prisma.TransactionClient,
  projectId: number,
  schema: BotSchema,
): Promise<void> {
  await tx.arrow.deleteMany({ where: { projectId } });
  await tx.block.deleteMany({ where: { projectId } });
  if (schema.blocks.length)
    await tx.block.createMany({ data: schema.blocks.map((b) => blockToRow(projectId, b)) });
  if (schema.arrows.length)
    await tx.arrow.createMany({ data: schema.arrows.map((a) => arrowToRow(projectId, a)) });
  if (schema.tests) await replaceTests(tx, projectId, schema.tests);
}

/**
 * A whole bot written or snapshotted in one transaction: a bot of 5,000 blocks takes seconds on
 * a loaded machine, past Prisma's default 5 s (the save then failed with nothing saved).
 */
export const BOT_WRITE_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

export interface SaveOptions {
  /** The revision the editor started from; a save over a newer revision is refused. */
  expectedRevision?: number;
  /**
   * The schema is this published version's bot (a discarded draft): the draft saved has no
   * unpublished changes. Ignored when another version was published meanwhile.
   */
  publishedAgain?: number;
}

/**
 * Replaces a project's whole bot schema (import, and the builder's save). Validated by the
 * same zod schema as every file; one transaction, so a refused save changes nothing.
 */
export async function saveBotSchema(
  db: PrismaClient,
  projectId: number,
  input: unknown,
  options: SaveOptions = {},
): Promise<{ revision: number }> {
  const parsed = parseBotSchema(input);
  if (!parsed.ok) throw invalid(`The bot schema is invalid:\n${describeFieldErrors(parsed.errors)}`);
  const schema = parsed.value;
  return db.$transaction(async (tx) => {
    // Lock the project row so two saves are applied one after the other.
    const project = await lockProjectRow(tx, projectId);
    if (!project) throw new DomainError('not_found', `Project ${projectId} does not exist.`);
    if (options.expectedRevision !== undefined && options.expectedRevision !== project.schemaRevision) {
      throw new DomainError(
        'conflict',
        `The bot was changed elsewhere (revision ${project.schemaRevision}, you edited ${options.expectedRevision}). Reload to get the latest version; your change was not saved.`,
      );
    }
    await replaceBotRows(tx, projectId, schema);
    const maxBlock = Math.max(0, ...schema.blocks.map((b) => b.id));
    const maxArrow = Math.max(0, ...schema.arrows.map((a) => a.id));
    const updated = await tx.project.update({
      where: { id: projectId },
      data: {
        schemaRevision: { increment: 1 },
        ...(options.publishedAgain !== undefined && options.publishedAgain === project.publishedVersion
          ? { publishedRevision: project.schemaRevision + 1 }
          : {}),
        // Ids are never reused after a delete: integrators keep block ids in their code.
        nextBlockId: Math.max(project.nextBlockId, maxBlock + 1),
        nextArrowId: Math.max(project.nextArrowId, maxArrow + 1),
      },
      select: { schemaRevision: true },
    });
    return { revision: updated.schemaRevision };
  }, BOT_WRITE_TRANSACTION);
}
