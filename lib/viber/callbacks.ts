import { z } from 'zod';

/**
 * Viber's callbacks to a bot's webhook (developers.viber.com/docs/api/rest-bot-api,
 * "Callbacks"): one event per POST, `event` naming it. Read into what the channel does with
 * each; pure.
 *
 * `message_token` is a 64-bit number, past what a JavaScript number holds exactly: the raw
 * body's tokens are quoted before it is parsed (`quoteTokens`), so two events never share one.
 */

/** Every `"message_token": 123…` of a JSON text as a string, before JSON.parse rounds it. */
export const quoteTokens = (json: string): string =>
  json.replace(/("message_token"\s*:\s*)(-?\d+)/g, '$1"$2"');

const token = z.union([z.string().regex(/^-?\d{1,20}$/), z.number().int()]).transform(String);
const user = z.object({
  id: z.string().min(1).max(200),
  name: z.string().max(300).optional(),
  avatar: z.string().max(2000).optional(),
  language: z.string().max(50).optional(),
  country: z.string().max(10).optional(),
  api_version: z.number().optional(),
});

const base = { timestamp: z.number(), message_token: token.optional() };

const inboundMessage = z.object({
  type: z.string(),
  text: z.string().max(100_000).optional(),
  media: z.string().max(4000).optional(),
  file_name: z.string().max(1000).optional(),
  size: z.number().optional(),
  file_size: z.number().optional(),
  sticker_id: z.number().optional(),
  location: z.object({ lat: z.number(), lon: z.number() }).optional(),
  contact: z.object({ name: z.string().optional(), phone_number: z.string().optional() }).optional(),
  tracking_data: z.string().optional(),
});

const callbackSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('webhook'), ...base }),
  z.object({
    event: z.literal('message'),
    ...base,
    message_token: token,
    sender: user,
    message: inboundMessage,
  }),
  z.object({ event: z.literal('subscribed'), ...base, user }),
  z.object({ event: z.literal('unsubscribed'), ...base, user_id: z.string().min(1) }),
  z.object({
    event: z.literal('conversation_started'),
    ...base,
    user,
    context: z.string().max(1000).optional(),
    subscribed: z.boolean().optional(),
  }),
  z.object({ event: z.literal('delivered'), ...base, message_token: token, user_id: z.string().min(1) }),
  z.object({ event: z.literal('seen'), ...base, message_token: token, user_id: z.string().min(1) }),
  z.object({
    event: z.literal('failed'),
    ...base,
    message_token: token,
    user_id: z.string().min(1),
    desc: z.string().optional(),
  }),
]);
export type ViberCallback = z.infer<typeof callbackSchema>;

/** A file the person sent: its address (Viber's, which expires) and what it is. */
export interface ViberInboundFile {
  type: 'image' | 'video' | 'file';
  url: string;
  name?: string;
}

export type ViberInbound =
  | {
      kind: 'message';
      token: string;
      from: string;
      name?: string;
      text: string;
      files: ViberInboundFile[];
      links: string[];
    }
  | { kind: 'status'; token: string; user: string; status: 'delivered' | 'read' | 'failed'; error?: string }
  | { kind: 'subscribed'; user: string; name?: string }
  | { kind: 'unsubscribed'; user: string }
  | { kind: 'started'; user: string; name?: string; context?: string; subscribed: boolean }
  | { kind: 'ignore' }
  | { kind: 'invalid'; reason: string };

/** A person's name as Viber gives it (a placeholder when they hide it is still a name). */
const nameOf = (u: { name?: string }) => (u.name?.trim() ? { name: u.name.trim() } : {});

/** What one callback means; `invalid` for one this reading cannot take (recorded, not retried). */
export function readCallback(
  raw: unknown,
): { ok: true; callback: ViberCallback } | { ok: false; reason: string } {
  const parsed = callbackSchema.safeParse(raw);
  if (parsed.success) return { ok: true, callback: parsed.data };
  const event = (raw as { event?: unknown } | null)?.event;
  if (typeof event === 'string' && !callbackSchema.options.some((o) => o.shape.event.value === event))
    // An event the bot did not ask for (client_status, action…): Viber's, but nothing to do.
    return { ok: true, callback: { event: 'webhook', timestamp: Date.now() } };
  return { ok: false, reason: parsed.error.issues[0]?.message ?? 'not a Viber callback' };
}

export function inboundOf(callback: ViberCallback): ViberInbound {
  switch (callback.event) {
    case 'webhook':
      return { kind: 'ignore' };
    case 'subscribed':
      return { kind: 'subscribed', user: callback.user.id, ...nameOf(callback.user) };
    case 'unsubscribed':
      return { kind: 'unsubscribed', user: callback.user_id };
    case 'conversation_started':
      return {
        kind: 'started',
        user: callback.user.id,
        ...nameOf(callback.user),
        ...(callback.context ? { context: callback.context } : {}),
        subscribed: callback.subscribed === true,
      };
    case 'delivered':
    case 'seen':
      return {
        kind: 'status',
        token: callback.message_token,
        user: callback.user_id,
        status: callback.event === 'seen' ? 'read' : 'delivered',
      };
    case 'failed':
      return {
        kind: 'status',
        token: callback.message_token,
        user: callback.user_id,
        status: 'failed',
        error: callback.desc ?? 'Viber could not deliver it',
      };
    case 'message':
      return messageOf(callback);
  }
}

function messageOf(callback: Extract<ViberCallback, { event: 'message' }>): ViberInbound {
  const m = callback.message;
  const common = {
    kind: 'message' as const,
    token: callback.message_token,
    from: callback.sender.id,
    ...nameOf(callback.sender),
  };
  const text = m.text ?? '';
  switch (m.type) {
    case 'text':
      return { ...common, text, files: [], links: [] };
    case 'picture':
    case 'video':
    case 'file':
      if (!m.media) return { kind: 'invalid', reason: `a ${m.type} message without its media address` };
      return {
        ...common,
        text,
        files: [
          {
            type: m.type === 'picture' ? 'image' : m.type,
            url: m.media,
            ...(m.file_name ? { name: m.file_name } : {}),
          },
        ],
        links: [],
      };
    case 'sticker':
      // A sticker is a picture Viber serves; kept as its address, its id as the text's stand-in.
      return { ...common, text: text || 'sticker', files: [], links: m.media ? [m.media] : [] };
    case 'url':
      return { ...common, text: m.media ?? text, files: [], links: [] };
    case 'contact':
      // The shared contact's number is the text (a data-collection arrow stores it), with the name.
      return {
        ...common,
        text: [m.contact?.phone_number, m.contact?.name].filter(Boolean).join(' '),
        files: [],
        links: [],
      };
    case 'location':
      return m.location
        ? { ...common, text: `${m.location.lat},${m.location.lon}`, files: [], links: [] }
        : { kind: 'invalid', reason: 'a location message without its location' };
    default:
      return { ...common, text: text || m.type, files: [], links: m.media ? [m.media] : [] };
  }
}

/** The id an event is stored under: a status names the message it reports on, so the event is part of it. */
export function callbackId(callback: ViberCallback): string | null {
  const at = callback.message_token ?? String(callback.timestamp);
  switch (callback.event) {
    case 'message':
      return `message:${callback.message_token}`;
    case 'delivered':
    case 'seen':
    case 'failed':
      return `${callback.event}:${callback.message_token}`;
    case 'subscribed':
    case 'conversation_started':
      return `${callback.event}:${callback.user.id}:${at}`;
    case 'unsubscribed':
      return `unsubscribed:${callback.user_id}:${at}`;
    case 'webhook':
      return null;
  }
}

/** The person an event is about. */
export function callbackUser(callback: ViberCallback): string {
  switch (callback.event) {
    case 'message':
      return callback.sender.id;
    case 'subscribed':
    case 'conversation_started':
      return callback.user.id;
    case 'webhook':
      return '';
    default:
      return callback.user_id;
  }
}
