import {
  BOT_SCHEMA_FORMAT,
  type BotSchema,
  botSchemaSchema,
  describeFieldErrors,
  type FieldError,
  parseBotSchema,
} from '@/lib/schema';
import { describeLintTarget, lintBot } from '@/lib/schema/lint';
import { type BotDiff, diffBots, type VersionSide, versionSideLabel } from '@/lib/versions/bot-diff';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { insertPublishedVersion, lockProjectRow } from '@/server/db/row-queries';
import { DomainError, invalid } from '@/server/errors';
import { BOT_WRITE_TRANSACTION } from '@/server/projects/bot-rows';
import { loadBotSchema, saveBotSchema } from '@/server/projects/bot-schema-store';
import { botSchemaContentErrors } from '@/server/projects/validate-bot-schema';

/**
 * Draft and published (docs/versions.md): the builder edits the draft (the Block and Arrow
 * rows); publishing snapshots it as an immutable, numbered BotVersion that every channel, the
 * API, timers and broadcasts run. Publishing, rolling back and discarding lock the project's
 * row, so two at once are applied one after the other.
 */

/** Who publishes: kept by name too, so the history still names a member who left. */
export interface Publisher {
  userId: string | null;
  name: string;
}

export interface VersionSummary {
  number: number;
  note: string;
  publishedAt: Date;
  publishedBy: string;
  /** The version a rollback published again. */
  restoredFrom: number | null;
  blocks: number;
  arrows: number;
  /** Its conversation tests run at publishing, and how many failed (published anyway, the note says why). */
  testsRun: number;
  testsFailed: number;
}

const summarySelect = {
  number: true,
  note: true,
  publishedAt: true,
  publishedByName: true,
  restoredFrom: true,
  blockCount: true,
  arrowCount: true,
  testsRun: true,
  testsFailed: true,
} satisfies Prisma.BotVersionSelect;

function summaryOf(row: Prisma.BotVersionGetPayload<{ select: typeof summarySelect }>): VersionSummary {
  return {
    number: row.number,
    note: row.note,
    publishedAt: row.publishedAt,
    publishedBy: row.publishedByName,
    restoredFrom: row.restoredFrom,
    blocks: row.blockCount,
    arrows: row.arrowCount,
    testsRun: row.testsRun,
    testsFailed: row.testsFailed,
  };
}

/**
 * A published version's bot (checked when it was published, parsed as any file is); version 0,
 * nothing published yet, is an empty bot.
 */
export async function loadVersionSchema(db: Db, projectId: number, number: number): Promise<BotSchema> {
  if (number === 0) return { format: BOT_SCHEMA_FORMAT, blocks: [], arrows: [] };
  const row = await db.botVersion.findUnique({
    where: { projectId_number: { projectId, number } },
    select: { schema: true },
  });
  if (!row) throw new DomainError('not_found', `The bot has no version ${number}.`);
  return botSchemaSchema.parse(row.schema);
}

/** The bot clients talk to, and its number; an empty bot (number 0) while none is published. */
export async function loadPublishedSchema(
  db: Db,
  projectId: number,
): Promise<{ schema: BotSchema; version: number }> {
  const project = await db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { publishedVersion: true },
  });
  const version = project.publishedVersion;
  return { version, schema: await loadVersionSchema(db, projectId, version) };
}

/** Whether the published bot has a block with this id (a broadcast's block, a filter by block). */
export async function publishedBlockExists(db: Db, projectId: number, blockId: number): Promise<boolean> {
  const { schema } = await loadPublishedSchema(db, projectId);
  return schema.blocks.some((b) => b.id === blockId);
}

/** The state the toolbar shows: the published version, and whether the draft differs from it. */
export async function publishState(db: Db, projectId: number) {
  const project = await db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { schemaRevision: true, publishedVersion: true, publishedRevision: true },
  });
  const published = project.publishedVersion
    ? await db.botVersion.findUnique({
        where: { projectId_number: { projectId, number: project.publishedVersion } },
        select: summarySelect,
      })
    : null;
  return {
    draftRevision: project.schemaRevision,
    published: published ? summaryOf(published) : null,
    unpublishedChanges: project.publishedRevision !== project.schemaRevision,
  };
}

async function loadSide(db: Db, projectId: number, side: VersionSide): Promise<BotSchema> {
  if (side === 'draft') return (await loadBotSchema(db, projectId)).schema;
  return loadVersionSchema(db, projectId, side);
}

/**
 * What changed from one version to another, or to the draft (docs/versions.md, "Comparing
 * versions"). A side the bot does not have is refused by name.
 */
export async function diffVersions(
  db: Db,
  projectId: number,
  from: VersionSide,
  to: VersionSide,
): Promise<{ from: VersionSide; to: VersionSide; diff: BotDiff }> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw new DomainError('not_found', `Project ${projectId} does not exist.`);
  const missing = await missingVersions(db, projectId, [from, to]);
  if (missing.length)
    throw new DomainError(
      'not_found',
      `Cannot compare ${versionSideLabel(from)} with ${versionSideLabel(to)}: the bot has no ${missing.map(versionSideLabel).join(' and no ')}.`,
    );
  const [before, after] = await Promise.all([loadSide(db, projectId, from), loadSide(db, projectId, to)]);
  return { from, to, diff: diffBots(before, after) };
}

/** The numbered sides the bot has no version of (0 and the draft always exist). */
async function missingVersions(db: Db, projectId: number, sides: VersionSide[]): Promise<number[]> {
  const numbers = [...new Set(sides.filter((s): s is number => s !== 'draft' && s !== 0))];
  if (!numbers.length) return [];
  const found = await db.botVersion.findMany({
    where: { projectId, number: { in: numbers } },
    select: { number: true },
  });
  const have = new Set(found.map((v) => v.number));
  return numbers.filter((n) => !have.has(n));
}

/** Every version, newest first. */
export async function listVersions(db: Db, projectId: number): Promise<VersionSummary[]> {
  const rows = await db.botVersion.findMany({
    where: { projectId },
    orderBy: { number: 'desc' },
    select: summarySelect,
  });
  return rows.map(summaryOf);
}

/** Lint's rules that keep a bot from being published besides its errors: what it refers to is gone. */
const MISSING_REFERENCES = new Set(['unknown-list', 'unknown-crm-stage']);

/**
 * What keeps a bot from being published: the builder's own checks (formulas, fields), lint's
 * errors, and references to lists or CRM stages the project no longer has, each naming its
 * block or arrow.
 */
async function publishProblems(tx: Db, projectId: number, schema: BotSchema): Promise<FieldError[]> {
  const [project, lists, states] = await Promise.all([
    tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { plan: true } }),
    tx.clientList.findMany({ where: { projectId }, select: { id: true } }),
    tx.crmState.findMany({ where: { projectId }, select: { id: true } }),
  ]);
  const lint = lintBot(schema, {
    plan: project.plan,
    listIds: lists.map((l) => l.id),
    crmStateIds: states.map((s) => s.id),
  })
    .filter((p) => p.severity === 'error' || MISSING_REFERENCES.has(p.rule))
    .map((p) => ({ field: describeLintTarget(p.target), message: p.message }));
  return [...botSchemaContentErrors(schema), ...lint];
}

/**
 * Stores `schema` as the next version and makes it the published one (in the caller's
 * transaction); `draftRevision`, the draft revision whose bot it is (null for a rollback's).
 */
async function storeVersion(
  tx: Prisma.TransactionClient,
  projectId: number,
  schema: BotSchema,
  by: Publisher,
  fields: {
    note: string;
    draftRevision: number | null;
    restoredFrom: number | null;
    tests?: { run: number; failed: number };
  },
): Promise<VersionSummary> {
  const schemaJson = JSON.stringify(schema);
  const row = await insertPublishedVersion(tx, {
    projectId,
    schemaJson,
    blockCount: schema.blocks.length,
    arrowCount: schema.arrows.length,
    // Read at every press of a tg button: worked out once here, not from the schema each time.
    answersCallbacks: schemaJson.includes('tg_callback_url_open'),
    note: fields.note,
    restoredFrom: fields.restoredFrom,
    publishedById: by.userId,
    publishedByName: by.name,
    draftRevision: fields.draftRevision,
    testsRun: fields.tests?.run ?? 0,
    testsFailed: fields.tests?.failed ?? 0,
  });
  return summaryOf(row);
}

export interface PublishOptions {
  note?: string;
  /** The draft revision the designer sees; a draft changed since then is not published. */
  expectedRevision?: number;
  /** Its conversation tests' run (server/conversation-tests/publish-gate.ts), kept with the version. */
  tests?: { run: number; failed: number };
}

/**
 * Publishes the draft as the next version: refused, listing the problems by block and field,
 * when it does not pass the builder's checks and lint; refused when it is the published
 * version's draft already (nothing to publish).
 */
export async function publishDraft(
  db: PrismaClient,
  projectId: number,
  by: Publisher,
  options: PublishOptions = {},
): Promise<VersionSummary> {
  // Read and checked before taking the project's lock (a big bot's lint takes a while, and
  // autosaves wait for the lock); the lock then makes sure it is still the draft.
  const seen = await db.project.findUnique({
    where: { id: projectId },
    select: { schemaRevision: true, publishedVersion: true, publishedRevision: true },
  });
  if (!seen) throw new DomainError('not_found', `Project ${projectId} does not exist.`);
  refuseStale(seen, options.expectedRevision);
  const { schema } = await loadBotSchema(db, projectId, { withTests: true });
  const problems = await publishProblems(db, projectId, schema);
  if (problems.length)
    throw invalid(`The draft was not published; fix these first:\n${describeFieldErrors(problems)}`);
  return db.$transaction(async (tx) => {
    const project = await lockProjectRow(tx, projectId);
    if (!project) throw new DomainError('not_found', `Project ${projectId} does not exist.`);
    // Saved again meanwhile, or published by someone else: refused as if it had been so at the start.
    refuseStale(project, seen.schemaRevision);
    return storeVersion(tx, projectId, schema, by, {
      note: options.note?.trim() ?? '',
      draftRevision: project.schemaRevision,
      restoredFrom: null,
      tests: options.tests,
    });
  }, BOT_WRITE_TRANSACTION);
}

/** A draft other than the one the publisher saw, or one that is the published version already. */
function refuseStale(
  project: { schemaRevision: number; publishedVersion: number; publishedRevision: number | null },
  expectedRevision: number | undefined,
): void {
  if (expectedRevision !== undefined && expectedRevision !== project.schemaRevision)
    throw new DomainError(
      'conflict',
      `The draft was changed elsewhere (revision ${project.schemaRevision}, you see ${expectedRevision}). Reload, check it, and publish again; nothing was published.`,
    );
  if (project.publishedVersion && project.publishedRevision === project.schemaRevision)
    throw new DomainError(
      'conflict',
      `The draft has no changes since version ${project.publishedVersion}: there is nothing to publish.`,
    );
}

/**
 * Rolls back: publishes version `number`'s bot again, as a new version (history is never
 * rewritten). The draft is left as it is. Refused, with the reasons, when that bot no longer
 * passes the checks (it sends clients to a list or CRM stage deleted since).
 */
export async function republishVersion(
  db: PrismaClient,
  projectId: number,
  number: number,
  by: Publisher,
  note = '',
): Promise<VersionSummary> {
  return db.$transaction(async (tx) => {
    if (!(await lockProjectRow(tx, projectId)))
      throw new DomainError('not_found', `Project ${projectId} does not exist.`);
    const schema = await loadVersionSchema(tx, projectId, number);
    const problems = await publishProblems(tx, projectId, schema);
    if (problems.length)
      throw invalid(
        `Version ${number} was not published again; the project has changed since:\n${describeFieldErrors(problems)}`,
      );
    return storeVersion(tx, projectId, schema, by, {
      note: note.trim() || `Rollback to version ${number}`,
      draftRevision: null,
      restoredFrom: number,
    });
  }, BOT_WRITE_TRANSACTION);
}

/** Replaces the draft with the published version's bot (its unpublished changes are dropped). */
export async function discardDraft(db: PrismaClient, projectId: number): Promise<{ revision: number }> {
  const { version, schema } = await loadPublishedSchema(db, projectId);
  if (!version)
    throw new DomainError('conflict', 'Nothing is published yet: there is no version to go back to.');
  // Its tests too: the draft's become the version's (none when it had none).
  return saveBotSchema(db, projectId, { ...schema, tests: schema.tests ?? [] }, { publishedAgain: version });
}

/**
 * Saves `input` as the draft and publishes it (the demo bot of a new project, `blockbot import
 * --publish`, test fixtures): one call for "this is the bot clients talk to now".
 */
export async function saveAndPublish(
  db: PrismaClient,
  projectId: number,
  input: unknown,
  by: Publisher = { userId: null, name: '' },
  note = '',
): Promise<VersionSummary> {
  const parsed = parseBotSchema(input);
  if (!parsed.ok) throw invalid(`The bot schema is invalid:\n${describeFieldErrors(parsed.errors)}`);
  await saveBotSchema(db, projectId, parsed.value);
  return publishDraft(db, projectId, by, { note });
}
