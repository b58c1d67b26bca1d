import { z } from 'zod';
import { CHANNEL_STATUS } from '@/lib/channels/descriptors';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import type { DeliveryStatus } from '@/lib/history-message';

/**
 * The webhooks of a WhatsApp Web session gateway (WAHA, waha.devlike.pro: docs/channels/chatapp.md
 * says why this one), read: `message` (a client wrote), `message.ack` (a sent message's status)
 * and `session.status` (the session's state, which pairing moves). Everything else is ignored.
 */

/** The session's states as WAHA names them (PASSKEY_*: steps of a pairing, as SCAN_QR_CODE). */
export const GATEWAY_SESSION_STATES = [
  'STOPPED',
  'STARTING',
  'SCAN_QR_CODE',
  'PASSKEY_REQUIRED',
  'PASSKEY_CONFIRMATION_REQUIRED',
  'WORKING',
  'FAILED',
] as const;
export type GatewaySessionState = (typeof GATEWAY_SESSION_STATES)[number];

/**
 * The interface's chat-app status (connected_channels) of a session state: paired and running is
 * STARTED; not paired yet (starting, showing a QR) NOT_STARTED; FAILED, the phone unlinked or
 * offline for too long, ASLEEP (a restart or a new pairing wakes it); stopped STOPPED.
 */
export function gatewayChannelStatus(state: string): number {
  if (state === 'WORKING') return CHANNEL_STATUS.started;
  if (state === 'FAILED') return CHANNEL_STATUS.asleep;
  if (state === 'STOPPED') return CHANNEL_STATUS.stopped;
  return CHANNEL_STATUS.notStarted;
}

/** A chat id's kind: a person's phone (`@c.us`, `@s.whatsapp.net`), a hidden number (`@lid`), or another. */
const PERSONAL = /^(\d{5,20})@(c\.us|s\.whatsapp\.net)$/;
const LINKED = /^(\d{5,30})@lid$/;

/**
 * A client's platform_id from the chat id the gateway names them by: a phone's E.164 digits
 * whatever the suffix, so `79001234567@c.us`, `79001234567@s.whatsapp.net` and `+7 900 123-45-67`
 * are one client; a person who hides their number (`@lid`) keeps the whole id. Undefined for
 * chats that are not one person's (groups, channels, status broadcasts).
 */
export function gatewayPlatformId(chatId: string): string | undefined {
  if (PERSONAL.test(chatId)) return phoneDigits(chatId);
  if (LINKED.test(chatId)) return chatId;
  return undefined;
}

/** The chat id to send to for a client's platform_id (digits, a number in any format, or an `@lid` id). */
export function gatewayChatId(platformId: string): string {
  if (LINKED.test(platformId)) return platformId;
  return `${phoneDigits(platformId)}@c.us`;
}

const media = z.object({
  url: z.string().url().nullish(),
  mimetype: z.string().nullish(),
  filename: z.string().nullish(),
});

const messagePayload = z.object({
  id: z.string().min(1),
  timestamp: z.number(),
  from: z.string(),
  fromMe: z.boolean().default(false),
  body: z.string().nullish(),
  hasMedia: z.boolean().default(false),
  media: media.nullish(),
  location: z
    .object({ latitude: z.coerce.number(), longitude: z.coerce.number(), description: z.string().nullish() })
    .nullish(),
  vCards: z.array(z.string()).nullish(),
  _data: z.looseObject({ notifyName: z.string().nullish() }).nullish(),
});

const ackPayload = z.object({
  id: z.string().min(1),
  to: z.string().nullish(),
  from: z.string().nullish(),
  fromMe: z.boolean().nullish(),
  ack: z.number().int(),
  ackName: z.string().nullish(),
});

const statusPayload = z.object({ status: z.string() });

const envelope = z.object({
  id: z.string().nullish(),
  event: z.string(),
  session: z.string(),
  me: z.object({ id: z.string(), pushName: z.string().nullish() }).nullish(),
  payload: z.unknown(),
});
export type GatewayEnvelope = z.infer<typeof envelope>;

export interface GatewayAttachment {
  type: 'image' | 'video' | 'audio' | 'document';
  /** The gateway's own address of the file (it needs the API key): downloaded while processed. */
  url: string;
  mime: string;
  name?: string;
}

export type GatewayInbound =
  | {
      kind: 'message';
      /** The client's platform_id (gatewayPlatformId) and the chat id to answer. */
      from: string;
      chatId: string;
      name?: string;
      messageId: string;
      sentAt: number;
      text: string;
      attachments: GatewayAttachment[];
      location?: { latitude: number; longitude: number };
    }
  | {
      kind: 'status';
      messageId: string;
      recipient: string;
      status: Exclude<DeliveryStatus, 'queued'>;
      error?: string;
    }
  | { kind: 'ignore'; reason: string }
  | { kind: 'invalid'; reason: string };

/** What one webhook POST is: an update for the inbound pipeline, a session's new state, or neither. */
export type GatewayDelivery =
  | {
      kind: 'update';
      session: string;
      externalId: string;
      order: number;
      chat: string;
      payload: GatewayStored;
    }
  | { kind: 'session'; session: string; state: string; me: { phone: string; name: string } | null }
  | { kind: 'ignore'; session: string; reason: string }
  | { kind: 'invalid'; reason: string };

/** An update as the pipeline stores it: the envelope's event and payload (a marker tells it from the Cloud API's). */
export interface GatewayStored {
  gateway: 'waha';
  event: 'message' | 'message.ack';
  payload: unknown;
}

export function gatewayDelivery(body: unknown): GatewayDelivery {
  const parsed = envelope.safeParse(body);
  if (!parsed.success) return { kind: 'invalid', reason: issueText(parsed.error) };
  const { event, session, payload, me } = parsed.data;
  if (event === 'session.status') {
    const status = statusPayload.safeParse(payload);
    if (!status.success) return { kind: 'invalid', reason: `payload.${issueText(status.error)}` };
    const phone = me ? phoneDigits(me.id) : '';
    return {
      kind: 'session',
      session,
      state: status.data.status,
      me: phone ? { phone, name: me?.pushName ?? '' } : null,
    };
  }
  if (event !== 'message' && event !== 'message.ack')
    return { kind: 'ignore', session, reason: `a ${event} event` };
  const stored: GatewayStored = { gateway: 'waha', event, payload };
  const meaning = parseGatewayItem(stored);
  if (meaning.kind === 'ignore') return { kind: 'ignore', session, reason: meaning.reason };
  if (meaning.kind === 'invalid') return { kind: 'invalid', reason: meaning.reason };
  if (meaning.kind === 'status')
    return {
      kind: 'update',
      session,
      // Each status of a message once: a resent delivery of it is dropped.
      externalId: `${meaning.messageId}:${meaning.status}`,
      order: Date.now(),
      chat: meaning.recipient,
      payload: stored,
    };
  return {
    kind: 'update',
    session,
    externalId: meaning.messageId,
    order: meaning.sentAt,
    chat: meaning.from,
    payload: stored,
  };
}

export const isGatewayStored = (payload: unknown): payload is GatewayStored =>
  typeof payload === 'object' && payload !== null && (payload as { gateway?: unknown }).gateway === 'waha';

/** What a stored update means. */
export function parseGatewayItem(stored: GatewayStored): GatewayInbound {
  if (stored.event === 'message.ack') {
    const ack = ackPayload.safeParse(stored.payload);
    if (!ack.success) return { kind: 'invalid', reason: `payload.${issueText(ack.error)}` };
    const status = ACKS[ack.data.ack];
    const recipient = gatewayPlatformId(ack.data.to ?? '');
    if (!status || !recipient)
      return { kind: 'ignore', reason: `an ack ${ack.data.ackName ?? ack.data.ack}` };
    return {
      kind: 'status',
      messageId: ack.data.id,
      recipient,
      status,
      ...(status === 'failed' ? { error: 'the gateway reported an error sending this message' } : {}),
    };
  }
  const parsed = messagePayload.safeParse(stored.payload);
  if (!parsed.success) return { kind: 'invalid', reason: `payload.${issueText(parsed.error)}` };
  const m = parsed.data;
  if (m.fromMe) return { kind: 'ignore', reason: 'a message the number sent itself' };
  const from = gatewayPlatformId(m.from);
  if (!from) return { kind: 'ignore', reason: `a message in ${m.from}, which is not a person's chat` };
  const base = {
    kind: 'message' as const,
    from,
    chatId: m.from,
    ...(m._data?.notifyName ? { name: m._data.notifyName } : {}),
    messageId: m.id,
    sentAt: m.timestamp,
  };
  if (m.location) {
    const { latitude, longitude } = m.location;
    return { ...base, text: `${latitude},${longitude}`, attachments: [], location: { latitude, longitude } };
  }
  if (m.vCards?.length) return { ...base, text: vCardPhone(m.vCards[0]) ?? m.body ?? '', attachments: [] };
  if (m.hasMedia && m.media?.url) {
    const mime = m.media.mimetype ?? 'application/octet-stream';
    return {
      ...base,
      text: m.body ?? '',
      attachments: [
        {
          type: mediaType(mime),
          url: m.media.url,
          mime,
          ...(m.media.filename ? { name: m.media.filename } : {}),
        },
      ],
    };
  }
  if (m.hasMedia)
    return {
      kind: 'invalid',
      reason: 'a file the gateway did not download (its WHATSAPP_DOWNLOAD_MEDIA or media settings are off)',
    };
  return { ...base, text: m.body ?? '', attachments: [] };
}

/** ack → delivery status: SERVER sent, DEVICE delivered, READ and PLAYED read, ERROR failed. */
const ACKS: Record<number, Exclude<DeliveryStatus, 'queued'>> = {
  [-1]: 'failed',
  1: 'sent',
  2: 'delivered',
  3: 'read',
  4: 'read',
};

function mediaType(mime: string): GatewayAttachment['type'] {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

/** A shared contact's first phone number (its vCard's TEL line), as the Cloud API gives it. */
function vCardPhone(card: string): string | undefined {
  const tel = /^TEL[^:]*:(.+)$/im.exec(card);
  return tel?.[1].trim();
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}
