import { BOT_SCHEMA_FORMAT, type BotSchema, describeFieldErrors, parseBotSchema } from '@/lib/schema';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { lockProjectRow } from '@/server/db/row-queries';
import { DomainError, invalid } from '@/server/errors';
import { publishLive } from '@/server/live/live-events';
import { arrowFromRow, arrowToRow, BOT_WRITE_TRANSACTION, blockFromRow, blockToRow } from './bot-rows';
import { loadTests, replaceTests } from './bot-test-store';
import { type DraftAuthor, NO_AUTHOR, recordDraftChange } from './draft-changes-store';

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

export interface SaveOptions {
  /** The revision the editor started from; a save over a newer revision is refused. */
  expectedRevision?: number;
  /**
   * The schema is this published version's bot (a discarded draft): the draft saved has no
   * unpublished changes. Ignored when another version was published meanwhile.
   */
  publishedAgain?: number;
  /** Who replaced the bot, as the other designers' canvases are told (they reload it). */
  author?: DraftAuthor;
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
  const saved = await db.$transaction(async (tx) => {
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
    await recordDraftChange(tx, projectId, updated.schemaRevision, options.author ?? NO_AUTHOR, null);
    return { revision: updated.schemaRevision };
  }, BOT_WRITE_TRANSACTION);
  publishLive([{ kind: 'bot', projectId, revision: saved.revision }]);
  return saved;
}
