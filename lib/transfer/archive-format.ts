import { z } from 'zod';
import { CHANNEL_DESCRIPTORS } from '@/lib/channels/descriptors';

/**
 * A project archive (docs/operations.md, "Moving a project to another instance"): gzip'd JSON
 * lines, one record each: `{"t":"header",...}` first, then `{"t":<kind>,"r":<row>}` records in
 * the order the importer inserts them (what a row refers to comes before it), then
 * `{"t":"end","counts":{...}}`, so a cut-off file is told from a whole one. Ids are the source's;
 * the importer gives every row a new one. Dates are ISO text, bytes base64, bigints decimal text.
 * Each record is checked by its schema here when read: a wrong one is named by line and field.
 */

export const ARCHIVE_FORMAT = 'blockbot/project-archive';
export const ARCHIVE_VERSION = 1;

const id = z.number().int().positive();
const date = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const optionalDate = date.nullable();
/** Bytes as base64 text; the server decodes them (lib/ stays free of Node's Buffer). */
const bytes = z.base64();
const json = z.json();
const text = z.string();

/** How secrets in the archive are sealed: scrypt of the passphrase, then AES-256-GCM per value. */
export const archiveKeySchema = z.object({
  kdf: z.literal('scrypt'),
  salt: z.base64(),
  N: z.number().int().positive(),
  r: z.number().int().positive(),
  p: z.number().int().positive(),
  /** A known text sealed with the key: a wrong passphrase is refused before anything is read. */
  check: text,
});
export type ArchiveKey = z.infer<typeof archiveKeySchema>;

export const headerSchema = z.object({
  t: z.literal('header'),
  format: z.literal(ARCHIVE_FORMAT),
  version: z.number().int().positive(),
  exportedAt: date,
  source: z.object({
    /** The source database's last migration: an archive of a newer Blockbot is refused. */
    migration: text,
    mode: z.enum(['embedded', 'server']),
    projectId: id,
    projectName: text,
  }),
  /** Present when the archive carries secrets (sealed with this key). */
  secrets: archiveKeySchema.optional(),
});
export type ArchiveHeader = z.infer<typeof headerSchema>;

const PLANS = ['free', 'business', 'ai'] as const;
const CHANNEL_KINDS = CHANNEL_DESCRIPTORS.map((d) => d.kind) as [string, ...string[]];

/** Every record kind, in the order they appear in an archive. */
export const recordSchemas = {
  project: z.object({
    name: text,
    plan: z.enum(PLANS),
    timeZone: text,
    webhookUrl: text.nullable(),
    /** Sealed with the archive key; absent without secrets (the target makes a new one). */
    webhookSecret: text.optional(),
    /** The names of the project secrets left out (an archive without secrets), for the report. */
    secretsLeftOut: z.array(text).default([]),
    webhookTestConversations: z.boolean(),
    operatorsSendBroadcasts: z.boolean(),
    apiAllowedOrigins: z.array(text),
    publishedVersion: z.number().int().nonnegative(),
    /** Whether the draft was the published bot (no unpublished changes). */
    draftIsPublished: z.boolean(),
    botPauseMinutes: z.number().int().nonnegative(),
    aiDailyTokenLimit: z.number().int().nonnegative(),
    nextBlockId: id,
    nextArrowId: id,
    createdAt: date,
  }),
  constant: z.object({ name: text, value: text }),
  /** A project secret, sealed with the archive key (only in archives with secrets). */
  secret: z.object({ name: text, sealed: text }),
  funnel: z.object({ id, name: text, position: z.number().int(), cardVariables: z.array(text) }),
  state: z.object({
    id,
    funnelId: id,
    name: text,
    position: z.number().int(),
    color: text,
    kind: z.enum(['open', 'won', 'lost']),
  }),
  list: z.object({ id, name: text, createdAt: date }),
  /** The draft bot with its conversation tests, in the JSON format of lib/schema (checked there). */
  draft: z.object({ schema: json }),
  version: z.object({
    number: id,
    schema: z.object({ blocks: z.array(json), arrows: z.array(json) }).catchall(json),
    blockCount: z.number().int().nonnegative(),
    arrowCount: z.number().int().nonnegative(),
    answersCallbacks: z.boolean(),
    restoredFrom: z.number().int().nullable(),
    note: text,
    publishedByName: text,
    publishedAt: date,
    testsRun: z.number().int().nonnegative(),
    testsFailed: z.number().int().nonnegative(),
  }),
  /**
   * A channel. One holding credentials (a messenger's token) is written as `connected` and
   * imported only as a note to reconnect it; one without (a chat widget) moves whole.
   */
  channel: z.object({
    id,
    kind: z.enum(CHANNEL_KINDS),
    clientType: z.number().int(),
    groupId: text,
    name: text,
    connected: z.boolean(),
    status: z.number().int(),
    receiveMode: text,
    settings: json,
    createdAt: date,
  }),
  client: z.object({
    id,
    platformId: text,
    groupId: text,
    clientType: z.number().int(),
    name: text,
    tag: text,
    avatar: text,
    currentBlockId: z.number().int().nullable(),
    lastBlockAt: optionalDate,
    subscribed: z.boolean(),
    createdAt: date,
    updatedAt: date,
    lastMessageAt: optionalDate,
    customAnswer: text.nullable(),
    botPausedAt: optionalDate,
    botPausedUntil: optionalDate,
    waitingSince: optionalDate,
  }),
  clientVariable: z.object({ clientId: id, name: text, value: text, updatedAt: date }),
  channelState: z.object({ clientId: id, key: text, value: text, updatedAt: date }),
  widgetVisitor: z.object({ channelId: id, clientId: id, tokenHash: text, createdAt: date }),
  deal: z.object({
    id,
    clientId: id,
    stateId: id.nullable(),
    closedAt: optionalDate,
    createdAt: date,
    updatedAt: date,
  }),
  dealVariable: z.object({ dealId: id, name: text, value: text, updatedAt: date }),
  listMember: z.object({ listId: id, clientId: id, addedAt: date }),
  file: z.object({
    id: text,
    clientId: id,
    name: text,
    mimeType: text,
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    bytes,
    uploadKey: text.nullable(),
    createdAt: date,
  }),
  message: z.object({
    id: z.string().regex(/^\d+$/),
    clientId: id,
    direction: z.enum(['in', 'out']),
    text,
    attachments: json,
    buttons: json.nullable(),
    blockId: z.number().int().nullable(),
    messageFromOutside: z.number().int(),
    delivered: z.boolean(),
    error: text.nullable(),
    status: z.enum(['queued', 'sent', 'delivered', 'read', 'failed']).nullable(),
    externalId: text.nullable(),
    createdAt: date,
  }),
  submission: z.object({
    clientId: id,
    dealId: id.nullable(),
    blockId: z.number().int(),
    variables: json,
    kept: z.boolean(),
    createdAt: date,
  }),
  flowCount: z.object({
    version: z.number().int(),
    day: date,
    kind: z.enum(['block', 'arrow', 'stage', 'submission']),
    targetId: z.number().int(),
    count: z.number().int(),
    visitors: bytes,
    test: z.boolean(),
  }),
  aiProvider: z.object({
    id,
    name: text,
    baseUrl: text,
    chatModel: text,
    embeddingModel: text,
    embeddingDimensions: z.number().int().nullable(),
    apiKeySecret: text,
    timeoutSeconds: z.number().int(),
    requestsPerMinute: z.number().int(),
    tokenParameter: text,
    temperature: text,
    isDefault: z.boolean(),
    createdAt: date,
  }),
  aiModelParameters: z.object({
    providerId: id,
    model: text,
    tokenParameter: text,
    temperature: z.boolean(),
    system: z.boolean(),
    learnedAt: date,
  }),
  aiAssistant: z.object({ settings: json, createdAt: date }),
  knowledgeDocument: z.object({
    id,
    title: text,
    sourceKind: z.enum(['text', 'markdown', 'pdf', 'html', 'url']),
    sourceUrl: text.nullable(),
    status: z.enum(['indexing', 'ready', 'failed']),
    error: text.nullable(),
    chunkSize: z.number().int(),
    byteSize: z.number().int(),
    createdAt: date,
  }),
  knowledgeChunk: z.object({
    documentId: id,
    position: z.number().int(),
    headingPath: z.array(text),
    text,
    embedding: bytes.nullable(),
    embeddingModel: text.nullable(),
    dimensions: z.number().int().nullable(),
  }),
} as const;

export type RecordKind = keyof typeof recordSchemas;
export type ArchiveRecord<K extends RecordKind> = z.infer<(typeof recordSchemas)[K]>;
/** A record as written: what its schema reads back (dates, bytes in their JSON form). */
export type RecordInput<K extends RecordKind> = z.input<(typeof recordSchemas)[K]>;

export const RECORD_KINDS = Object.keys(recordSchemas) as RecordKind[];

export const endSchema = z.object({
  t: z.literal('end'),
  counts: z.record(z.string(), z.number().int().nonnegative()),
});

/** What an archive line says is wrong, in words naming the line and the field. */
export function describeRecordError(line: number, kind: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? ` ${issue.path.join('.')}` : '';
  return `line ${line} (${kind}):${where}: ${issue?.message ?? 'invalid'}`;
}
