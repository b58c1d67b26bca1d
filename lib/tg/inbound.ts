import { z } from 'zod';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { CALLBACK_ID_PREFIX } from './render';

/**
 * A Bot API Update → what the engine receives, or why it is ignored. Never throws: a malformed
 * update, a prototype key or an oversized field is `invalid` (not processed, its reason recorded;
 * the webhook still answers 200, as the messenger resends anything else), an update the bot does
 * not react to is `ignore`.
 *
 * Decisions: edited messages are ignored (the bot already answered the first version; a
 * reaction to an edit would surprise the client); a contact's phone is the client's phone only
 * when the client shared their own contact; a location is the text `lat,lon`.
 */

export const TG_CLIENT_TYPE = CLIENT_TYPES.tg;
/** The key of a client's channel state (`ClientChannelState`) with the business connection the
 * client last wrote through: the channel sends its replies with it. */
export const BUSINESS_CONNECTION_KEY = 'tg_business_connection_id';

export interface TgClientIdentity {
  /** The chat's id: the user's id in a private chat, the group's (negative) id in a group. */
  platformId: string;
  name: string;
  username?: string;
  clientType: typeof TG_CLIENT_TYPE;
}

export interface TgInboundAttachment {
  type: 'image' | 'video' | 'file' | 'audio';
  /** A URL needs getFile with the bot's token, so the channel resolves it when it stores it. */
  fileId: string;
  voice?: true;
}

export interface TgMessageEvent {
  kind: 'message';
  updateId: number;
  client: TgClientIdentity;
  chatId: number;
  chatType: 'private' | 'group' | 'supergroup' | 'channel';
  /** Who wrote it: the user's id (in a group, one member of the client). */
  senderId?: number;
  messageId?: number;
  /** The client's message as the bot matches it: text, caption, pressed button, phone, `lat,lon`. */
  text: string;
  attachments: TgInboundAttachment[];
  /** `/start promo` → {name: 'start', payload: 'promo'}; the engine keeps a start payload. */
  command?: { name: string; payload: string };
  location?: { latitude: number; longitude: number };
  /** The client's own phone, shared as a contact. */
  phone?: string;
  /** Set for a pressed inline button: the channel must answer it with answerCallbackQuery. */
  callbackQueryId?: string;
  /** Set for a business account's chat: replies go with the same id. */
  businessConnectionId?: string;
}

export interface TgBusinessConnectionEvent {
  kind: 'business_connection';
  updateId: number;
  connectionId: string;
  /** The business account's owner and their private chat with the bot. */
  userId: number;
  userChatId: number;
  enabled: boolean;
  canReply: boolean;
}

/**
 * The bot's own membership in a chat changed (`my_chat_member`): in a private chat the user
 * blocked the bot (kicked) or unblocked it (member); in a group the bot was removed or added.
 */
export interface TgMembershipEvent {
  kind: 'membership';
  updateId: number;
  chatId: number;
  /** Whether the bot can write to the chat now: the client's subscription follows it. */
  member: boolean;
}

export type TgInbound =
  | TgMessageEvent
  | TgBusinessConnectionEvent
  | TgMembershipEvent
  | { kind: 'ignore'; updateId: number; reason: string; callbackQueryId?: string }
  | { kind: 'invalid'; updateId?: number; reason: string };

const text = (max: number) => z.string().max(max);
/**
 * A message text or caption: at most 4096 characters, which the Bot API does not say how it
 * counts; counted in code points, so an emoji counted as one is never refused (in UTF-16 it is 2).
 * Captions are 4096 too: Premium users send them that long, beyond the 1024 a bot may send.
 */
const MESSAGE_CHARACTERS = 4096;
const messageText = z
  .string()
  .refine((s) => s.length <= MESSAGE_CHARACTERS || [...s].length <= MESSAGE_CHARACTERS, {
    error: `Too big: expected at most ${MESSAGE_CHARACTERS} characters`,
  });
/** Ids whose length the Bot API does not document (file ids, query ids): only absurd ones are refused. */
const opaqueId = text(1024);
const id = z.number().int().safe();
const updateIdSchema = id.min(0);

const userSchema = z.object({
  id,
  is_bot: z.boolean().optional(),
  first_name: text(256),
  last_name: text(256).optional(),
  username: text(64).optional(),
});

const chatSchema = z.object({
  id,
  type: z.enum(['private', 'group', 'supergroup', 'channel']),
  title: text(256).optional(),
  username: text(64).optional(),
  first_name: text(256).optional(),
  last_name: text(256).optional(),
});

const fileSchema = z.object({ file_id: opaqueId.min(1) });

const messageSchema = z.object({
  message_id: id,
  date: id,
  chat: chatSchema,
  from: userSchema.optional(),
  text: messageText.optional(),
  caption: messageText.optional(),
  photo: z.array(fileSchema).max(20).optional(),
  document: fileSchema.optional(),
  audio: fileSchema.optional(),
  video: fileSchema.optional(),
  animation: fileSchema.optional(),
  video_note: fileSchema.optional(),
  voice: fileSchema.optional(),
  location: z
    .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .optional(),
  contact: z
    .object({ phone_number: text(64).min(1), first_name: text(256), user_id: id.optional() })
    .optional(),
  business_connection_id: opaqueId.optional(),
  sender_business_bot: userSchema.optional(),
});

const keyboardSchema = z.object({
  inline_keyboard: z
    .array(z.array(z.object({ text: text(4096), callback_data: text(64).optional() })).max(100))
    .max(100),
});

const callbackQuerySchema = z.object({
  id: opaqueId.min(1),
  from: userSchema,
  // An old message arrives "inaccessible": date 0 and no keyboard.
  message: z.object({ message_id: id, chat: chatSchema, reply_markup: keyboardSchema.optional() }).optional(),
  // 1-64 bytes: never more than 64 UTF-16 units.
  data: text(64).optional(),
  business_connection_id: opaqueId.optional(),
});

const businessConnectionSchema = z.object({
  id: opaqueId.min(1),
  user: userSchema,
  user_chat_id: id,
  is_enabled: z.boolean(),
  can_reply: z.boolean().optional(),
  rights: z.object({ can_reply: z.boolean().optional() }).optional(),
});

const chatMemberSchema = z.object({
  chat: chatSchema,
  new_chat_member: z.object({
    status: z.enum(['creator', 'administrator', 'member', 'restricted', 'left', 'kicked']),
  }),
});

const IGNORED = [
  'edited_message',
  'edited_business_message',
  'deleted_business_messages',
  'channel_post',
  'edited_channel_post',
  'inline_query',
  'chosen_inline_result',
  'chat_member',
  'chat_join_request',
  'message_reaction',
  'message_reaction_count',
  'poll',
  'poll_answer',
  'shipping_query',
  'pre_checkout_query',
];

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 12;
const MAX_NODES = 20_000;

/** A prototype key anywhere, or a structure far beyond any real update. */
function hostileShape(value: unknown): string | undefined {
  let nodes = 0;
  const walk = (v: unknown, depth: number, path: string): string | undefined => {
    if (v === null || typeof v !== 'object') return undefined;
    if (++nodes > MAX_NODES) return 'the update is far larger than any real one';
    if (depth > MAX_DEPTH) return `the update is nested deeper than ${MAX_DEPTH} levels at ${path}`;
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(key)) return `the update has a forbidden key "${key}" at ${path}`;
      const found = walk((v as Record<string, unknown>)[key], depth + 1, `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  };
  return walk(value, 0, 'update');
}

function issue(error: z.ZodError, field: string): string {
  const first = error.issues[0];
  return `${[field, ...first.path].join('.')}: ${first.message}`;
}

function identity(chat: z.infer<typeof chatSchema>, from?: z.infer<typeof userSchema>): TgClientIdentity {
  const person = chat.type === 'private' ? (from ?? chat) : undefined;
  const name = person
    ? [person.first_name, person.last_name].filter(Boolean).join(' ')
    : (chat.title ?? chat.username ?? '');
  const username = chat.type === 'private' ? (from?.username ?? chat.username) : chat.username;
  return { platformId: String(chat.id), name, ...(username ? { username } : {}), clientType: TG_CLIENT_TYPE };
}

/** `/cmd@bot payload` → the command, or undefined when the text is none or it is for another bot. */
function command(text: string, botUsername?: string): { name: string; payload: string } | null | undefined {
  const m = /^\/([A-Za-z0-9_]{1,32})(?:@(\w{1,64}))?(?:\s+([\s\S]*))?$/.exec(text);
  if (!m) return undefined;
  if (m[2] && botUsername && m[2].toLowerCase() !== botUsername.toLowerCase()) return null;
  return { name: m[1], payload: (m[3] ?? '').trim() };
}

function attachments(m: z.infer<typeof messageSchema>): TgInboundAttachment[] {
  const out: TgInboundAttachment[] = [];
  // Sizes come smallest first; the last is the original.
  const photo = m.photo?.at(-1);
  if (photo) out.push({ type: 'image', fileId: photo.file_id });
  const video = m.video ?? m.animation ?? m.video_note;
  if (video) out.push({ type: 'video', fileId: video.file_id });
  if (m.audio) out.push({ type: 'audio', fileId: m.audio.file_id });
  if (m.voice) out.push({ type: 'audio', fileId: m.voice.file_id, voice: true });
  // An animation also carries its file as `document`.
  if (m.document && !m.animation) out.push({ type: 'file', fileId: m.document.file_id });
  return out;
}

function fromMessage(updateId: number, m: z.infer<typeof messageSchema>, botUsername?: string): TgInbound {
  if (m.sender_business_bot)
    return { kind: 'ignore', updateId, reason: 'sent by a bot of the business account' };
  // In a business chat the owner's own messages arrive too; the client is the other person.
  if (m.business_connection_id && m.chat.type === 'private' && m.from && m.from.id !== m.chat.id)
    return { kind: 'ignore', updateId, reason: 'written by the business account owner' };
  const event: TgMessageEvent = {
    kind: 'message',
    updateId,
    client: identity(m.chat, m.from),
    chatId: m.chat.id,
    chatType: m.chat.type,
    ...(m.from ? { senderId: m.from.id } : {}),
    messageId: m.message_id,
    text: m.text ?? m.caption ?? '',
    attachments: attachments(m),
    ...(m.business_connection_id ? { businessConnectionId: m.business_connection_id } : {}),
  };
  if (m.text !== undefined) {
    const cmd = command(m.text, botUsername);
    if (cmd === null) return { kind: 'ignore', updateId, reason: 'a command for another bot' };
    if (cmd) event.command = cmd;
  }
  if (m.location) {
    event.location = m.location;
    event.text ||= `${m.location.latitude},${m.location.longitude}`;
  }
  if (m.contact) {
    event.text ||= m.contact.phone_number;
    if (m.from && m.contact.user_id === m.from.id) event.phone = m.contact.phone_number;
  }
  if (!event.text && !event.attachments.length)
    return {
      kind: 'ignore',
      updateId,
      reason: 'the message has no text or content the bot reads (a sticker, a poll…)',
    };
  return event;
}

/** The text of a pressed button: its callback_data, or for a `bb:` id the button's text. */
export function callbackText(
  data: string,
  keyboard: { text: string; callback_data?: string }[][] | undefined,
  known: Record<string, string> = {},
): string | undefined {
  if (!data.startsWith(CALLBACK_ID_PREFIX)) return data;
  return (
    keyboard?.flat().find((b) => b.callback_data === data)?.text ??
    (Object.hasOwn(known, data) ? known[data] : undefined)
  );
}

function fromCallbackQuery(
  updateId: number,
  q: z.infer<typeof callbackQuerySchema>,
  known?: Record<string, string>,
): TgInbound {
  const ignore = (reason: string): TgInbound => ({ kind: 'ignore', updateId, reason, callbackQueryId: q.id });
  if (q.data === undefined) return ignore('a callback query without data (a game button)');
  const text = callbackText(q.data, q.message?.reply_markup?.inline_keyboard, known);
  if (text === undefined) return ignore(`the button ${q.data} is no longer known (its message is too old)`);
  const chat = q.message?.chat ?? { id: q.from.id, type: 'private' as const, first_name: q.from.first_name };
  return {
    kind: 'message',
    updateId,
    client: identity(chat, q.from),
    chatId: chat.id,
    chatType: chat.type,
    senderId: q.from.id,
    ...(q.message ? { messageId: q.message.message_id } : {}),
    text,
    attachments: [],
    callbackQueryId: q.id,
    ...(q.business_connection_id ? { businessConnectionId: q.business_connection_id } : {}),
  };
}

export interface ParseOptions {
  /** The bot's username: commands addressed to another bot (`/help@other_bot`) are ignored. */
  botUsername?: string;
  /** callback_data ids → button texts kept from rendering, for keyboards the update lacks. */
  callbackTexts?: Record<string, string>;
}

export function parseUpdate(raw: unknown, options: ParseOptions = {}): TgInbound {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { kind: 'invalid', reason: 'an update must be a JSON object' };
  const hostile = hostileShape(raw);
  if (hostile) return { kind: 'invalid', reason: hostile };
  const update = raw as Record<string, unknown>;
  const updateId = updateIdSchema.safeParse(update.update_id);
  if (!updateId.success) return { kind: 'invalid', reason: 'update_id must be a whole number of at least 0' };
  const base = { updateId: updateId.data };

  for (const field of ['message', 'business_message'] as const) {
    if (update[field] === undefined) continue;
    const m = messageSchema.safeParse(update[field]);
    if (!m.success) return { kind: 'invalid', ...base, reason: issue(m.error, field) };
    return fromMessage(base.updateId, m.data, options.botUsername);
  }
  if (update.callback_query !== undefined) {
    const q = callbackQuerySchema.safeParse(update.callback_query);
    if (!q.success) return { kind: 'invalid', ...base, reason: issue(q.error, 'callback_query') };
    return fromCallbackQuery(base.updateId, q.data, options.callbackTexts);
  }
  if (update.business_connection !== undefined) {
    const c = businessConnectionSchema.safeParse(update.business_connection);
    if (!c.success) return { kind: 'invalid', ...base, reason: issue(c.error, 'business_connection') };
    return {
      kind: 'business_connection',
      ...base,
      connectionId: c.data.id,
      userId: c.data.user.id,
      userChatId: c.data.user_chat_id,
      enabled: c.data.is_enabled,
      canReply: c.data.rights?.can_reply ?? c.data.can_reply ?? false,
    };
  }
  if (update.my_chat_member !== undefined) {
    const m = chatMemberSchema.safeParse(update.my_chat_member);
    if (!m.success) return { kind: 'invalid', ...base, reason: issue(m.error, 'my_chat_member') };
    const { status } = m.data.new_chat_member;
    // restricted: still in the group, maybe unable to write; its subscription is left as it is.
    if (status === 'restricted')
      return { kind: 'ignore', ...base, reason: 'the bot was restricted in a group' };
    return {
      kind: 'membership',
      ...base,
      chatId: m.data.chat.id,
      member: status !== 'left' && status !== 'kicked',
    };
  }
  const other = IGNORED.find((k) => update[k] !== undefined);
  return {
    kind: 'ignore',
    ...base,
    reason:
      other === 'edited_message' || other === 'edited_business_message'
        ? 'edited messages are ignored: the bot answered the first version'
        : `updates of kind ${other ?? 'unknown'} are not handled`,
  };
}
