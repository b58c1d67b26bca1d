import { z } from 'zod';

/**
 * The Instagram messaging webhook (`object: instagram`, `entry[].messaging[]`, and comments on
 * the account's posts, `entry[].changes[]` of the `comments` field) as the social channel's
 * updates: each messaging event or comment is one update, deduplicated by the messenger's id (a
 * message or postback by its `mid`, a read or delivery report by what it names), ordered in its
 * chat (the person's Instagram-scoped id) by its time. The stored payload is the event with its
 * account's id (`entry.id`), read back by `parseInstagramItem`, so the sweeper sees what the
 * webhook saw. Pure.
 */

const id = z.object({ id: z.string().min(1) });

const attachment = z.looseObject({
  type: z.string(),
  payload: z.looseObject({ url: z.string().optional(), title: z.string().optional() }).nullish(),
});

const message = z.looseObject({
  mid: z.string().min(1),
  text: z.string().optional(),
  attachments: z.array(attachment).optional(),
  quick_reply: z.object({ payload: z.string() }).optional(),
  reply_to: z
    .looseObject({
      mid: z.string().optional(),
      story: z.object({ id: z.string().optional(), url: z.string().optional() }).optional(),
    })
    .optional(),
  is_echo: z.boolean().optional(),
  is_deleted: z.boolean().optional(),
  is_unsupported: z.boolean().optional(),
});

const event = z.looseObject({
  sender: id,
  recipient: id,
  timestamp: z.coerce.number().nonnegative(),
  message: message.optional(),
  postback: z
    .looseObject({ mid: z.string().optional(), title: z.string().optional(), payload: z.string().optional() })
    .optional(),
  read: z.looseObject({ mid: z.string().optional(), watermark: z.number().optional() }).optional(),
  delivery: z
    .looseObject({ mids: z.array(z.string()).optional(), watermark: z.number().optional() })
    .optional(),
  reaction: z.looseObject({}).optional(),
});

/** A comment on one of the account's posts (a `comments` change). */
const comment = z.looseObject({
  id: z.string().min(1),
  text: z.string().default(''),
  from: z.looseObject({ id: z.string().min(1), username: z.string().optional() }),
  media: z.looseObject({ id: z.string().optional() }).optional(),
  parent_id: z.string().optional(),
});

/**
 * One stored update: a messaging event, or a comment with its time (ms), and the account
 * (entry) it came to.
 */
const item = z.union([
  z.object({ account: z.string(), event }),
  z.object({ account: z.string(), comment, at: z.number() }),
]);
export type InstagramItem = z.infer<typeof item>;

const webhook = z.object({
  object: z.literal('instagram', { error: 'is not an Instagram webhook (object must be instagram)' }),
  entry: z.array(
    z.looseObject({
      id: z.string(),
      time: z.number().optional(),
      messaging: z.array(z.looseObject({})).optional(),
      changes: z.array(z.looseObject({ field: z.string() })).optional(),
    }),
  ),
});

export type InstagramAttachmentType = 'image' | 'video' | 'audio' | 'file' | 'link';

export interface InstagramAttachment {
  type: InstagramAttachmentType;
  url: string;
}

export type InstagramInbound =
  | {
      kind: 'message';
      account: string;
      /** The person's Instagram-scoped id (IGSID). */
      from: string;
      mid: string;
      /** The messenger's time of it, ms. */
      sentAt: number;
      /** The text, a quick reply's or postback's payload, or `story_mention` for a mention. */
      text: string;
      attachments: InstagramAttachment[];
      /** The story it answers or mentions, by its address. */
      story?: { kind: 'reply' | 'mention'; url: string };
    }
  | {
      /** A comment on the account's post: the bot may answer it with one private reply. */
      kind: 'comment';
      account: string;
      from: string;
      username?: string;
      commentId: string;
      sentAt: number;
      text: string;
    }
  | { kind: 'status'; account: string; from: string; mids: string[]; status: 'delivered' | 'read' }
  | { kind: 'ignore' }
  | { kind: 'invalid'; reason: string };

/** What a story mention's message says, for the designer's triggers. */
export const STORY_MENTION_TEXT = 'story_mention';

const FILE_TYPES: Record<string, Exclude<InstagramAttachmentType, 'link'>> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  file: 'file',
  ig_reel: 'video',
  reel: 'video',
  animated_image: 'image',
};

export interface InstagramUpdate {
  externalId: string;
  order: number;
  chat: string;
  payload: InstagramItem;
  parsed: InstagramInbound;
}

/** A webhook delivery's updates, or why it is not Instagram's messaging webhook. */
export function instagramUpdates(
  raw: unknown,
): { ok: true; updates: InstagramUpdate[]; accounts: string[] } | { ok: false; reason: string } {
  const read = webhook.safeParse(raw);
  if (!read.success) return { ok: false, reason: z.prettifyError(read.error) };
  const updates: InstagramUpdate[] = [];
  for (const entry of read.data.entry) {
    for (const rawEvent of entry.messaging ?? []) {
      const parsedEvent = event.safeParse(rawEvent);
      if (!parsedEvent.success) continue;
      const payload: InstagramItem = { account: entry.id, event: parsedEvent.data };
      const e = parsedEvent.data;
      // The person is the sender, or the recipient of our own message's echo.
      const person = e.message?.is_echo ? e.recipient.id : e.sender.id;
      updates.push({
        externalId: externalIdOf(e),
        order: e.timestamp,
        chat: person,
        payload,
        parsed: inboundOf(payload),
      });
    }
    for (const change of entry.changes ?? []) {
      const c = change.field === 'comments' ? comment.safeParse(change.value) : undefined;
      // The account's own comments (its answers under its posts) start nothing.
      if (!c?.success || c.data.from.id === entry.id) continue;
      const payload: InstagramItem = { account: entry.id, comment: c.data, at: (entry.time ?? 0) * 1000 };
      updates.push({
        externalId: `comment:${c.data.id}`,
        order: payload.at,
        chat: c.data.from.id,
        payload,
        parsed: inboundOf(payload),
      });
    }
  }
  return { ok: true, updates, accounts: [...new Set(read.data.entry.map((e) => e.id))] };
}

function externalIdOf(e: z.infer<typeof event>): string {
  if (e.message) return e.message.mid;
  if (e.postback) return e.postback.mid ?? `postback:${e.sender.id}:${e.timestamp}`;
  if (e.read) return `read:${e.read.mid ?? `${e.sender.id}:${e.read.watermark ?? e.timestamp}`}`;
  if (e.delivery) return `delivery:${(e.delivery.mids ?? []).join(',') || `${e.sender.id}:${e.timestamp}`}`;
  return `event:${e.sender.id}:${e.timestamp}`;
}

/** A stored update read back (by the sweeper too). */
export function parseInstagramItem(payload: unknown): InstagramInbound {
  const read = item.safeParse(payload);
  if (!read.success)
    return { kind: 'invalid', reason: `a stored update that does not parse: ${z.prettifyError(read.error)}` };
  return inboundOf(read.data);
}

function inboundOf(stored: InstagramItem): InstagramInbound {
  const { account } = stored;
  if ('comment' in stored) {
    const c = stored.comment;
    return {
      kind: 'comment',
      account,
      from: c.from.id,
      ...(c.from.username ? { username: c.from.username.toLowerCase() } : {}),
      commentId: c.id,
      sentAt: stored.at,
      text: c.text,
    };
  }
  const e = stored.event;
  const from = e.sender.id;
  const sentAt = e.timestamp;
  if (e.read?.mid) return { kind: 'status', account, from, mids: [e.read.mid], status: 'read' };
  if (e.delivery?.mids?.length)
    return { kind: 'status', account, from, mids: e.delivery.mids, status: 'delivered' };
  if (e.postback)
    return {
      kind: 'message',
      account,
      from,
      mid: e.postback.mid ?? `postback:${from}:${sentAt}`,
      sentAt,
      text: e.postback.payload ?? e.postback.title ?? '',
      attachments: [],
    };
  const m = e.message;
  if (!m || m.is_echo || m.is_deleted) return { kind: 'ignore' };
  const attachments: InstagramAttachment[] = [];
  let story: { kind: 'reply' | 'mention'; url: string } | undefined;
  for (const a of m.attachments ?? []) {
    const url = a.payload?.url;
    if (!url) continue;
    if (a.type === 'story_mention') story = { kind: 'mention', url };
    // A shared post, reel or anything else: its address, as a link the bot can read.
    else attachments.push({ type: FILE_TYPES[a.type] ?? 'link', url });
  }
  const storyReply = m.reply_to?.story?.url;
  if (!story && storyReply) story = { kind: 'reply', url: storyReply };
  const text = m.quick_reply?.payload ?? m.text ?? (story?.kind === 'mention' ? STORY_MENTION_TEXT : '');
  // A reaction, an unsupported kind of message: nothing the bot can answer.
  if (!text && !attachments.length && !story) return { kind: 'ignore' };
  return {
    kind: 'message',
    account,
    from,
    mid: m.mid,
    sentAt,
    text,
    attachments,
    ...(story ? { story } : {}),
  };
}
