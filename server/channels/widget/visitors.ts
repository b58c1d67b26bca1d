import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Attachment } from '@/lib/schema';
import { toWidgetMessage, type WidgetMessage } from '@/lib/widget/messages';
import { readWidgetSettings } from '@/lib/widget/settings';
import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { saveClientVariables } from '@/server/contacts/client-variables-service';
import { VARIABLE_LIMITS } from '@/server/contacts/variable-limits';
import type { PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { type WidgetChannel, widgetKeySchema } from './channel-service';
import { channelWithVisitor, dialogAfter, dialogBefore } from './sql';

/**
 * A widget visitor's dialog: opened with a fresh recipient (the client's platform_id, what the
 * page may pass to its backend) and a token (what the browser keeps to read and write it).
 * Only the token's hash is stored; the recipient alone opens nothing.
 */

export interface Visitor {
  clientId: number;
  projectId: number;
  recipient: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const visitorTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export async function openDialog(db: PrismaClient, channel: WidgetChannel) {
  const recipient = `w-${randomBytes(12).toString('base64url')}`;
  const token = randomBytes(32).toString('base64url');
  await db.client.create({
    data: {
      projectId: channel.projectId,
      clientType: CLIENT_TYPES.widget,
      groupId: channel.key,
      platformId: recipient,
      widgetVisitor: { create: { channelId: channel.id, tokenHash: hashToken(token) } },
    },
  });
  return { recipient, token };
}

/**
 * The widget channel a page names by its key (null for an unknown or malformed key) and the
 * visitor its token opens there (null for any other token, or none): one statement, since
 * every request asks both.
 */
export async function channelAndVisitor(
  db: PrismaClient,
  key: string,
  token: string,
): Promise<{ channel: WidgetChannel; visitor: Visitor | null } | null> {
  if (!widgetKeySchema.safeParse(key).success) return null;
  const tokenHash = visitorTokenSchema.safeParse(token).success ? hashToken(token) : null;
  const [row] = await plainSql(db).run(channelWithVisitor, {
    key,
    clientType: CLIENT_TYPES.widget,
    tokenHash,
  });
  if (!row) return null;
  return {
    channel: {
      id: row.id,
      projectId: row.projectId,
      key: row.groupId,
      settings: readWidgetSettings(row.settings),
    },
    visitor:
      row.clientId === null || row.recipient === null
        ? null
        : { clientId: row.clientId, projectId: row.projectId, recipient: row.recipient },
  };
}

/** The newest messages shown when the widget opens, and each earlier page. */
export const HISTORY_PAGE = 100;
/** What a resume sends at most at once; the widget asks again from the last one. */
export const RESUME_PAGE = 500;

/** Past every message id (int8): the newest page is the page before it. */
const AFTER_NEWEST = 9223372036854775807n;

/** The visitor's messages after a message, oldest first (a resume, the live stream). */
export async function messagesAfter(
  db: PrismaClient,
  visitor: Visitor,
  after: bigint,
): Promise<WidgetMessage[]> {
  const rows = await plainSql(db).run(dialogAfter, {
    projectId: visitor.projectId,
    clientId: visitor.clientId,
    after,
    limit: RESUME_PAGE,
  });
  return rows.map(toWidgetMessage);
}

/**
 * A page of the visitor's history, oldest first: the newest messages, or those before a
 * message (keyset paging by id, as the widget scrolls up); `more` when earlier ones remain.
 */
export async function historyPage(
  db: PrismaClient,
  visitor: Visitor,
  before: bigint = AFTER_NEWEST,
): Promise<{ messages: WidgetMessage[]; more: boolean }> {
  const rows = await plainSql(db).run(dialogBefore, {
    projectId: visitor.projectId,
    clientId: visitor.clientId,
    before,
    // One more than a page tells whether another page remains.
    limit: HISTORY_PAGE + 1,
  });
  return {
    messages: rows.slice(0, HISTORY_PAGE).reverse().map(toWidgetMessage),
    more: rows.length > HISTORY_PAGE,
  };
}

export const MAX_MESSAGE_LENGTH = 4000;

export const messageTextSchema = z
  .string()
  .trim()
  .min(1, { error: 'the message is empty' })
  .max(MAX_MESSAGE_LENGTH, { error: `a message is at most ${MAX_MESSAGE_LENGTH} characters` });

/** The widget's id of a message: a send repeated after a lost answer is stored and run once. */
export const messageIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'id is 8 to 64 letters, digits, _ or -' });

export const visitorMessageSchema = z.object({ text: messageTextSchema, id: messageIdSchema.optional() });

/**
 * The visitor's message (typed, a pressed button's text, or a file with its caption) through the
 * engine like any channel's.
 */
export async function sendFromVisitor(
  deps: EngineDeps,
  visitor: Visitor,
  text: string,
  id?: string,
  attachments?: Attachment[],
) {
  await handleEvent(
    deps,
    visitor.projectId,
    { clientId: visitor.clientId },
    {
      type: 'message',
      text,
      dedupeKey: id && `widget:${visitor.clientId}:${id}`,
      ...(attachments ? { attachments } : {}),
    },
  );
}

/** Variables a page may set at once. */
export const MAX_IDENTIFY_VARIABLES = 50;

export const identifySchema = z.object({
  name: z.string().trim().max(200, { error: 'name is over 200 characters' }).optional(),
  tag: z.string().trim().max(200, { error: 'tag is over 200 characters' }).optional(),
  variables: z
    .record(
      z.string().min(1).max(VARIABLE_LIMITS.nameLength),
      z.union([z.string(), z.number(), z.boolean()]).transform(String),
    )
    .refine((v) => Object.keys(v).length <= MAX_IDENTIFY_VARIABLES, {
      error: `at most ${MAX_IDENTIFY_VARIABLES} variables at once`,
    })
    .optional(),
});

/** The page's `Blockbot.identify`: the client's name and tag, and variables within the API's limits. */
export async function identifyVisitor(
  db: PrismaClient,
  visitor: Visitor,
  input: z.output<typeof identifySchema>,
) {
  if (input.variables && Object.keys(input.variables).length)
    await saveClientVariables(db, visitor.projectId, [visitor.clientId], input.variables);
  if (input.name !== undefined || input.tag !== undefined)
    await db.client.update({ where: { id: visitor.clientId }, data: { name: input.name, tag: input.tag } });
}
