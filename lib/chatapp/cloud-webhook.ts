import { z } from 'zod';
import { phoneDigits } from '@/lib/channels/phone-numbers';

/**
 * The WhatsApp Cloud API's webhook (`object: whatsapp_business_account`) as the chat-app
 * channel's updates: each message and each status report is one update, deduplicated by the
 * messenger's id (a status by its message id and status), ordered in its chat by its time.
 * Every update's stored payload is the item with its number's metadata and sender, and reads
 * back through `parseCloudItem`, so the sweeper sees what the webhook saw.
 */

const metadata = z.object({
  phone_number_id: z.string().min(1),
  display_phone_number: z.string().default(''),
});

const media = z.object({
  id: z.string().min(1),
  mime_type: z.string().default('application/octet-stream'),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
type MediaType = (typeof MEDIA_TYPES)[number];

const message = z.looseObject({
  from: z.string().min(1),
  id: z.string().min(1),
  timestamp: z.coerce.number().int().nonnegative(),
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  image: media.optional(),
  video: media.optional(),
  audio: media.optional(),
  document: media.optional(),
  sticker: media.optional(),
  location: z
    .object({
      latitude: z.number(),
      longitude: z.number(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  contacts: z
    .array(
      z.looseObject({
        name: z.looseObject({ formatted_name: z.string().optional() }).optional(),
        phones: z
          .array(z.looseObject({ phone: z.string().optional(), wa_id: z.string().optional() }))
          .optional(),
      }),
    )
    .optional(),
  interactive: z
    .object({
      type: z.string(),
      button_reply: z.object({ id: z.string(), title: z.string() }).optional(),
      list_reply: z.object({ id: z.string(), title: z.string() }).optional(),
    })
    .optional(),
  button: z.object({ payload: z.string().optional(), text: z.string() }).optional(),
  reaction: z.object({ message_id: z.string(), emoji: z.string().optional() }).optional(),
});

const contact = z.object({
  wa_id: z.string().optional(),
  profile: z.object({ name: z.string().optional() }).optional(),
});

const statusError = z.looseObject({
  code: z.number().int(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.object({ details: z.string().optional() }).optional(),
});

const status = z.looseObject({
  id: z.string().min(1),
  status: z.enum(['sent', 'delivered', 'read', 'failed', 'deleted', 'warning']),
  timestamp: z.coerce.number().int().nonnegative(),
  recipient_id: z.string().min(1),
  errors: z.array(statusError).optional(),
});

/** One stored update: a message or a status, with its number's metadata. */
const item = z.union([
  z.object({ metadata, contact: contact.optional(), message }),
  z.object({ metadata, status }),
]);
export type CloudItem = z.infer<typeof item>;

const webhook = z.object({
  object: z.literal('whatsapp_business_account', {
    error: 'is not a WhatsApp Business Account webhook (object must be whatsapp_business_account)',
  }),
  entry: z.array(
    z.object({
      id: z.string(),
      changes: z.array(z.object({ field: z.string(), value: z.looseObject({}) })),
    }),
  ),
});

export interface CloudAttachment {
  type: 'image' | 'video' | 'audio' | 'document';
  /** The Graph API's media id: downloaded while the update is processed. */
  mediaId: string;
  mime: string;
  name?: string;
}

export type CloudInbound =
  | {
      kind: 'message';
      phoneNumberId: string;
      /** The client's number, E.164 digits. */
      from: string;
      name?: string;
      messageId: string;
      /** When the client sent it (unix seconds, the messenger's clock): it opens the window. */
      sentAt: number;
      text: string;
      attachments: CloudAttachment[];
      location?: { latitude: number; longitude: number };
    }
  | {
      kind: 'status';
      phoneNumberId: string;
      messageId: string;
      /** The client's number, E.164 digits. */
      recipient: string;
      status: 'sent' | 'delivered' | 'read' | 'failed';
      /** When the messenger reported it (unix seconds, its clock). */
      at: number;
      /** A failure's code and why, as the messenger gave them. */
      error?: { code: number; text: string };
    }
  /** Something the bot has nothing to do with (a reaction, a deleted message's status). */
  | { kind: 'ignore'; reason: string }
  | { kind: 'invalid'; reason: string };

export interface CloudUpdate {
  externalId: string;
  order: number;
  chat: string;
  payload: CloudItem;
  parsed: CloudInbound;
}

/**
 * The updates of one webhook POST, of the `messages` field (the others: account and template
 * events, not a client's), or why the body is not a webhook of this API at all.
 */
export function cloudUpdates(
  body: unknown,
): { ok: true; updates: CloudUpdate[] } | { ok: false; reason: string } {
  const parsed = webhook.safeParse(body);
  if (!parsed.success) return { ok: false, reason: issueText(parsed.error) };
  const updates: CloudUpdate[] = [];
  for (const change of parsed.data.entry.flatMap((e) => e.changes)) {
    if (change.field !== 'messages') continue;
    const value = change.value as Record<string, unknown>;
    const meta = metadata.safeParse(value.metadata);
    if (!meta.success) continue;
    const contacts = z
      .array(contact)
      .catch([])
      .parse(value.contacts ?? []);
    for (const raw of asArray(value.messages)) {
      const from = (raw as { from?: unknown })?.from;
      const sender = contacts.find((c) => c.wa_id === from) ?? contacts[0];
      updates.push(updateOf({ metadata: meta.data, ...(sender ? { contact: sender } : {}), message: raw }));
    }
    for (const raw of asArray(value.statuses)) updates.push(updateOf({ metadata: meta.data, status: raw }));
  }
  return { ok: true, updates };
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function updateOf(raw: {
  metadata: z.infer<typeof metadata>;
  contact?: unknown;
  message?: unknown;
  status?: unknown;
}): CloudUpdate {
  const parsed = item.safeParse(raw);
  if (!parsed.success) {
    const id = (raw.message ?? raw.status) as { id?: unknown } | undefined;
    return {
      externalId: `invalid:${typeof id?.id === 'string' ? id.id : JSON.stringify(raw).length}`,
      order: 0,
      chat: '',
      payload: raw as CloudItem,
      parsed: { kind: 'invalid', reason: issueText(parsed.error) },
    };
  }
  const payload = parsed.data;
  if ('status' in payload) {
    const s = payload.status;
    return {
      externalId: `${s.id}:${s.status}`,
      order: s.timestamp,
      chat: phoneDigits(s.recipient_id),
      payload,
      parsed: meaningOf(payload),
    };
  }
  return {
    externalId: payload.message.id,
    order: payload.message.timestamp,
    chat: phoneDigits(payload.message.from),
    payload,
    parsed: meaningOf(payload),
  };
}

/** What a stored update means. */
export function parseCloudItem(raw: unknown): CloudInbound {
  const parsed = item.safeParse(raw);
  return parsed.success ? meaningOf(parsed.data) : { kind: 'invalid', reason: issueText(parsed.error) };
}

function meaningOf(data: CloudItem): CloudInbound {
  const phoneNumberId = data.metadata.phone_number_id;
  if ('status' in data) {
    const s = data.status;
    if (s.status === 'deleted' || s.status === 'warning')
      return { kind: 'ignore', reason: `a ${s.status} status` };
    const error = s.errors?.[0];
    return {
      kind: 'status',
      phoneNumberId,
      messageId: s.id,
      recipient: phoneDigits(s.recipient_id),
      status: s.status,
      at: s.timestamp,
      ...(error ? { error: { code: error.code, text: errorText(error) } } : {}),
    };
  }
  const { message: m, contact: sender } = data;
  const content = messageContent(m);
  if (!content) return { kind: 'ignore', reason: `a message of type ${m.type}` };
  return {
    kind: 'message',
    phoneNumberId,
    from: phoneDigits(m.from),
    ...(sender?.profile?.name ? { name: sender.profile.name } : {}),
    messageId: m.id,
    sentAt: m.timestamp,
    ...content,
  };
}

type Content = {
  text: string;
  attachments: CloudAttachment[];
  location?: { latitude: number; longitude: number };
};

/** The text and files of a message the bot reads; undefined for kinds it does not (reactions). */
function messageContent(m: z.infer<typeof message>): Content | undefined {
  const plain = (text: string): Content => ({ text, attachments: [] });
  if (m.text) return plain(m.text.body);
  // A pressed button or list row answers its id: the option's whole text (a title is cut at 20 or 24).
  if (m.interactive?.button_reply)
    return plain(m.interactive.button_reply.id || m.interactive.button_reply.title);
  if (m.interactive?.list_reply) return plain(m.interactive.list_reply.id || m.interactive.list_reply.title);
  if (m.button) return plain(m.button.payload || m.button.text);
  if (m.location) {
    const { latitude, longitude } = m.location;
    return { text: `${latitude},${longitude}`, attachments: [], location: { latitude, longitude } };
  }
  if (m.contacts?.length) {
    const phone = m.contacts[0].phones?.find((p) => p.phone || p.wa_id);
    return plain(phone?.phone ?? phone?.wa_id ?? m.contacts[0].name?.formatted_name ?? '');
  }
  const type = MEDIA_TYPES.find((t) => m.type === t && m[t]);
  if (type) {
    const file = m[type] as z.infer<typeof media>;
    return {
      text: file.caption ?? '',
      attachments: [
        {
          type: attachmentType(type),
          mediaId: file.id,
          mime: file.mime_type,
          ...(file.filename ? { name: file.filename } : {}),
        },
      ],
    };
  }
  return undefined;
}

/** A sticker is shown as the image it is. */
const attachmentType = (type: MediaType): CloudAttachment['type'] => (type === 'sticker' ? 'image' : type);

function errorText(e: z.infer<typeof statusError>): string {
  const detail = e.error_data?.details ?? e.message;
  return `${e.code} ${e.title ?? 'error'}${detail && detail !== e.title ? `: ${detail}` : ''}`;
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}
