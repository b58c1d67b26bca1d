import { createHash, createHmac, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { type Interception, interrupted } from '@/server/testing/intercepted';

/**
 * A WhatsApp Cloud API (Meta Graph API) server on 127.0.0.1 for tests, written from Meta's published
 * documentation: `POST /{version}/{phone-number-id}/messages` with a Bearer token, the media
 * endpoints, the webhook subscription handshake, signed webhook deliveries (messages and
 * statuses), Graph-format errors with the Cloud API codes, the 24-hour customer service window,
 * the per-number throughput and the per-recipient pair rate limit. Every request is recorded.
 * Behaviours a business meets, each with its source (Meta's "WhatsApp error codes" page, which
 * says an error comes back synchronously, as a webhook, or both; and its pages on templates and
 * throughput):
 * - a free-form message outside the customer service window is refused with 131047 "Re-engagement
 *   message": accepted, then a `failed` status webhook (`reengagement: 'status'`, the usual), or
 *   at once as a 400 (`reengagement: 'sync'`);
 * - a template's text parameter with a new line, a tab or more than four spaces in a row is
 *   refused at once: 400, 132018 "There's an issue with the parameters in your template", details
 *   "Param text cannot have new-line/tab characters or more than 4 consecutive spaces" (as Meta
 *   answers it in the field; its template guidelines forbid the same in a template's text);
 * - a number over its throughput is refused with 130429 "Rate limit hit" (HTTP 429), a pair of
 *   numbers over its rate with 131056 (HTTP 400);
 * - a template's parameter count must match (132000), an unknown or unapproved template is 132001.
 */

export interface FakeLimits {
  /** Messages per business number in any second (Meta's default throughput: 80 mps). */
  perSecond: number;
  /** The pair rate: one message to the same user every this many ms (Meta: about 6 s). */
  pairIntervalMs: number;
  /** Messages a burst to one user may hold before the borrowed time must be waited out (Meta: 45). */
  pairBurst: number;
  /** How long a burst lasts (Meta: 45 messages in 6 seconds). */
  pairBurstWindowMs: number;
}

export interface FakeNumber {
  phoneNumberId: string;
  wabaId: string;
  token: string;
  appSecret: string;
  /** Digits only, as the webhooks' metadata.display_phone_number carries it. */
  displayPhoneNumber: string;
  verifiedName: string;
}

export type TemplateStatus = 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';

export interface FakeTemplate {
  name: string;
  language: string;
  bodyParams: number;
  status: TemplateStatus;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
}

export type MessageStatus = 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusError {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
  href: string;
}

/** A message the business sent and the fake accepted (200 with a wamid). */
export interface SentMessage {
  id: string;
  phoneNumberId: string;
  /** The recipient's wa_id (digits of `to`). */
  to: string;
  type: string;
  /** The request body as sent. */
  payload: Record<string, unknown>;
  at: number;
  status: MessageStatus;
  /** Why it will fail (a `failed` status callback), decided when it was accepted. */
  failure?: StatusError;
}

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  status: number;
  answer: unknown;
  at: number;
}

/** A POST or GET the fake made to a webhook. */
export interface WebhookDelivery {
  kind: 'verify' | 'messages' | 'statuses' | 'raw';
  url: string;
  payload: unknown;
  status: number;
  body: string;
  at: number;
}

export type { Interception };

export interface InterceptedRequest {
  method: string;
  path: string;
  body: unknown;
}

export type InboundMessage = {
  /** The user's wa_id (digits). */
  from: string;
  /** The profile name in contacts[0].profile.name. */
  name?: string;
  /** A wamid; generated when omitted. */
  id?: string;
  /** The business message this one answers (context.id), e.g. a button's message. */
  replyTo?: string;
} & (
  | { type: 'text'; text: string }
  | {
      type: 'image' | 'document' | 'audio' | 'video' | 'sticker';
      /** Bytes the fake stores (addMedia) so the bot can download them; or an existing media id. */
      bytes?: Uint8Array;
      mediaId?: string;
      mimeType?: string;
      caption?: string;
      filename?: string;
    }
  | { type: 'location'; latitude: number; longitude: number; name?: string; address?: string }
  | { type: 'contacts'; contacts: Record<string, unknown>[] }
  | { type: 'button_reply'; id: string; title: string }
  | { type: 'list_reply'; id: string; title: string; description?: string }
  /** A template's quick-reply button. */
  | { type: 'button'; payload: string; text: string }
);

export interface FakeCloudApi {
  /** The Graph root to give the client, e.g. http://127.0.0.1:40123 (paths are /{version}/...). */
  url: string;
  /** The Graph version the fake advertises (any vNN.N path is accepted). */
  version: string;
  intercept: ((request: InterceptedRequest) => Interception | Promise<Interception>) | null;
  calls: RecordedCall[];
  deliveries: WebhookDelivery[];
  /** The limits in force; a test may change them (null: none). */
  limits: FakeLimits | null;
  /**
   * How a free-form message outside the window is refused: accepted, then failed by a status
   * webhook (`status`, as Meta usually does), or at once with a 400 (`sync`).
   */
  reengagement: 'status' | 'sync';
  addNumber(input?: Partial<FakeNumber>): FakeNumber;
  number(phoneNumberId: string): FakeNumber;
  /**
   * Subscribes a webhook for a number (or every number of a WABA) with the real handshake: a GET
   * with hub.mode=subscribe, hub.verify_token and hub.challenge; true (and stored) only when the
   * answer is 200 with the challenge as its body.
   */
  setWebhook(phoneNumberIdOrWabaId: string, webhook: { url: string; verifyToken: string }): Promise<boolean>;
  /** A user's message, delivered signed to the number's webhook; opens the 24-hour window. */
  sendInbound(
    phoneNumberId: string,
    message: InboundMessage,
  ): Promise<{ status: number; body: string; messageId: string }>;
  /** POSTs any payload to the number's webhook, signed unless `signature` is given (null: no header). */
  deliver(
    phoneNumberId: string,
    payload: unknown,
    options?: { signature?: string | null },
  ): Promise<{ status: number; body: string }>;
  /** Delivers every queued status callback (sent, delivered, failed), in order. */
  flushStatuses(): Promise<WebhookDelivery[]>;
  markDelivered(wamid: string): Promise<WebhookDelivery | null>;
  markRead(wamid: string): Promise<WebhookDelivery | null>;
  /** The user cannot be reached: messages to them are accepted, then fail with 131026. */
  blockRecipient(waId: string): void;
  /** Bytes the number can fetch with GET /{version}/{media-id}; answers the media id. */
  addMedia(phoneNumberId: string, bytes: Uint8Array, mimeType: string): string;
  addTemplate(
    wabaId: string,
    template: {
      name: string;
      language: string;
      bodyParams: number;
      status?: TemplateStatus;
      category?: FakeTemplate['category'];
    },
  ): FakeTemplate;
  /** Accepted messages of a number, to one recipient when `to` is given, in send order. */
  sent(phoneNumberId: string, to?: string): SentMessage[];
  /** When the accepted sends of a number (to one recipient when `to` is given) were made. */
  sendTimes(phoneNumberId: string, to?: string): number[];
  /** When the user last wrote to the number (the window's start), if ever. */
  lastInbound(phoneNumberId: string, waId: string): number | undefined;
  callsOf(path: RegExp | string): RecordedCall[];
  waitForCall(match: (call: RecordedCall) => boolean, timeoutMs?: number): Promise<RecordedCall>;
  /** Calls `listener` with every call from now on (a benchmark's one listener); answers how to stop. */
  onCall(listener: (call: RecordedCall) => void): () => void;
  close(): Promise<void>;
}

const WINDOW_MS = 24 * 60 * 60 * 1000;
const REENGAGEMENT =
  'Message failed to send because more than 24 hours have passed since the customer last replied to this number.';
const MAX_BODY = 5 * 1024 * 1024;
const ERROR_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';
const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;
const MESSAGE_TYPES = [
  'text',
  ...MEDIA_TYPES,
  'interactive',
  'template',
  'location',
  'contacts',
  'reaction',
] as const;

interface GraphErrorBody {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  error_data?: { messaging_product: 'whatsapp'; details: string };
  fbtrace_id: string;
}

class GraphFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: GraphErrorBody,
  ) {
    super(body.message);
  }
}

function fbtraceId(): string {
  return `A${randomBytes(16).toString('base64url').slice(0, 22)}`;
}

/** A Cloud API error: `(#code) title`, OAuthException, with error_data.details. */
function cloudError(status: number, code: number, title: string, details?: string): GraphFailure {
  return new GraphFailure(status, {
    message: `(#${code}) ${title}`,
    type: 'OAuthException',
    code,
    ...(details ? { error_data: { messaging_product: 'whatsapp' as const, details } } : {}),
    fbtrace_id: fbtraceId(),
  });
}

/** `(#100) <what>`: Graph's invalid or missing parameter. */
function param100(message: string, details?: string): GraphFailure {
  return cloudError(400, 100, message, details);
}

function invalid131009(details: string): GraphFailure {
  return cloudError(400, 131009, 'Parameter value is not valid', details);
}

function unknownObject(method: 'get' | 'post', id: string): GraphFailure {
  return new GraphFailure(400, {
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
    fbtrace_id: fbtraceId(),
  });
}

function statusError(code: number, title: string, details: string): StatusError {
  return { code, title, message: title, error_data: { details }, href: ERROR_HREF };
}

const button = z.looseObject({
  type: z.literal('reply'),
  reply: z.looseObject({ id: z.string(), title: z.string() }),
});
const row = z.looseObject({ id: z.string(), title: z.string(), description: z.string().optional() });
const section = z.looseObject({ title: z.string().optional(), rows: z.array(row) });
const header = z.looseObject({
  type: z.enum(['text', 'image', 'video', 'document']),
  text: z.string().optional(),
});
const interactiveSchema = z.looseObject({
  type: z.enum(['button', 'list', 'cta_url', 'flow', 'location_request_message', 'product', 'product_list']),
  header: header.optional(),
  body: z.looseObject({ text: z.string() }).optional(),
  footer: z.looseObject({ text: z.string() }).optional(),
  action: z.looseObject({
    buttons: z.array(button).optional(),
    button: z.string().optional(),
    sections: z.array(section).optional(),
  }),
});
const templateSchema = z.looseObject({
  name: z.string(),
  language: z.looseObject({ code: z.string(), policy: z.string().optional() }),
  components: z
    .array(z.looseObject({ type: z.string(), parameters: z.array(z.looseObject({})).optional() }))
    .optional(),
});
const mediaSchema = z.looseObject({
  id: z.string().optional(),
  link: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});
const locationSchema = z.looseObject({
  latitude: z.union([z.number(), z.string()]),
  longitude: z.union([z.number(), z.string()]),
});
const reactionSchema = z.looseObject({ message_id: z.string(), emoji: z.string() });
const readSchema = z.looseObject({
  messaging_product: z.literal('whatsapp'),
  status: z.literal('read'),
  message_id: z.string(),
  typing_indicator: z.looseObject({ type: z.literal('text') }).optional(),
});

/** Zod's first issue as Graph says it: `(#100) Invalid parameter` naming the param. */
function parsed<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = [name, ...issue.path].map((p, i) => (i === 0 ? String(p) : `['${String(p)}']`)).join('');
  if (issue.code === 'invalid_type' && issue.input === undefined)
    throw param100(`The parameter ${path} is required.`);
  throw param100('Invalid parameter', `Param ${path} is not valid: ${issue.message}`);
}

function publicNumber(n: FakeNumber): FakeNumber {
  const { phoneNumberId, wabaId, token, appSecret, displayPhoneNumber, verifiedName } = n;
  return { phoneNumberId, wabaId, token, appSecret, displayPhoneNumber, verifiedName };
}

function waIdOf(to: string): string {
  return to.replace(/\D/g, '');
}

function wamid(): string {
  return `wamid.${randomBytes(30).toString('base64url')}`;
}

interface NumberState extends FakeNumber {
  webhook: { url: string; verifyToken: string } | null;
  inbound: Set<string>;
  lastInbound: Map<string, number>;
  sends: number[];
  pairs: Map<string, { tat: number; burstStart: number; burstCount: number }>;
}

interface MediaState {
  id: string;
  phoneNumberId: string;
  bytes: Uint8Array;
  mimeType: string;
  hash: string;
}

export async function startFakeCloudApi(
  options: {
    now?: () => number;
    version?: string;
    limits?: Partial<FakeLimits> | null;
    /** Deliver the sent/delivered/failed callbacks on their own, right after each accepted send. */
    autoStatuses?: boolean;
    port?: number;
  } = {},
): Promise<FakeCloudApi> {
  const now = options.now ?? Date.now;
  const version = options.version ?? 'v23.0';
  const limits: FakeLimits | null =
    options.limits === null
      ? null
      : { perSecond: 80, pairIntervalMs: 6000, pairBurst: 45, pairBurstWindowMs: 6000, ...options.limits };
  const numbers = new Map<string, NumberState>();
  const wabaWebhooks = new Map<string, { url: string; verifyToken: string }>();
  const templates = new Map<string, FakeTemplate[]>();
  const media = new Map<string, MediaState>();
  const messages = new Map<string, SentMessage>();
  const sentList: SentMessage[] = [];
  const blocked = new Set<string>();
  const calls: RecordedCall[] = [];
  const deliveries: WebhookDelivery[] = [];
  const queue: { message: SentMessage; status: 'sent' | 'delivered' | 'failed' }[] = [];
  const recorded = new EventEmitter();
  recorded.setMaxListeners(0);
  let counter = 0;
  let autoFlush: Promise<unknown> = Promise.resolve();

  const seconds = () => String(Math.floor(now() / 1000));

  function state(phoneNumberId: string): NumberState {
    const n = numbers.get(phoneNumberId);
    if (!n) throw new Error(`the fake Cloud API has no number ${phoneNumberId}; call addNumber first`);
    return n;
  }

  function webhookOf(n: NumberState) {
    return n.webhook ?? wabaWebhooks.get(n.wabaId) ?? null;
  }

  function envelope(n: NumberState, value: Record<string, unknown>) {
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: n.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: n.displayPhoneNumber, phone_number_id: n.phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    };
  }

  async function post(
    n: NumberState,
    kind: WebhookDelivery['kind'],
    payload: unknown,
    signature?: string | null,
  ): Promise<WebhookDelivery> {
    const hook = webhookOf(n);
    if (!hook) throw new Error(`number ${n.phoneNumberId} has no webhook; call setWebhook first`);
    const raw = JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const sig =
      signature === undefined
        ? `sha256=${createHmac('sha256', n.appSecret).update(raw).digest('hex')}`
        : signature;
    if (sig !== null) headers['x-hub-signature-256'] = sig;
    let status = 0;
    let body = '';
    try {
      const res = await fetch(hook.url, { method: 'POST', headers, body: raw });
      status = res.status;
      body = await res.text();
    } catch (error) {
      body = String(error);
    }
    const delivery = { kind, url: hook.url, payload, status, body, at: now() };
    deliveries.push(delivery);
    return delivery;
  }

  function statusObject(message: SentMessage, status: 'sent' | 'delivered' | 'read' | 'failed') {
    const template = message.type === 'template';
    const category = template ? templateCategory(message) : 'service';
    const billable = template;
    const base: Record<string, unknown> = {
      id: message.id,
      status,
      timestamp: seconds(),
      recipient_id: message.to,
    };
    if (status === 'failed') return { ...base, errors: [message.failure] };
    if (status !== 'read') {
      base.conversation = {
        id: createHash('sha1').update(`${message.phoneNumberId}|${message.to}`).digest('hex').slice(0, 32),
        ...(status === 'sent'
          ? { expiration_timestamp: String(Math.floor((now() + WINDOW_MS) / 1000)) }
          : {}),
        origin: { type: category },
      };
      base.pricing = {
        billable,
        pricing_model: 'PMP',
        category,
        type: billable ? 'regular' : 'free_customer_service',
      };
    }
    return base;
  }

  function templateCategory(message: SentMessage): string {
    const t = message.payload.template as { name?: string; language?: { code?: string } } | undefined;
    const waba = numbers.get(message.phoneNumberId)?.wabaId ?? '';
    const found = (templates.get(waba) ?? []).find(
      (x) => x.name === t?.name && x.language === t?.language?.code,
    );
    return (found?.category ?? 'UTILITY').toLowerCase();
  }

  const ORDER: Record<MessageStatus, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

  async function pushStatus(message: SentMessage, status: 'sent' | 'delivered' | 'read' | 'failed') {
    if (message.status === 'failed' || ORDER[status] <= ORDER[message.status]) return null;
    message.status = status;
    const n = state(message.phoneNumberId);
    // With no webhook subscribed, Meta has nowhere to send the status: it is dropped.
    if (!webhookOf(n)) return null;
    return post(n, 'statuses', envelope(n, { statuses: [statusObject(message, status)] }));
  }

  async function flushStatuses(): Promise<WebhookDelivery[]> {
    const out: WebhookDelivery[] = [];
    while (queue.length) {
      const next = queue.shift()!;
      const delivery = await pushStatus(next.message, next.status);
      if (delivery) out.push(delivery);
    }
    return out;
  }

  // ---- the Graph API ----

  function authorize(req: http.IncomingMessage): NumberState[] {
    const auth = req.headers.authorization ?? '';
    const url = new URL(req.url ?? '/', 'http://fake');
    const token = /^Bearer\s+(.+)$/i.exec(auth)?.[1] ?? url.searchParams.get('access_token') ?? '';
    if (!token)
      throw new GraphFailure(401, {
        message: 'An access token is required to request this resource.',
        type: 'OAuthException',
        code: 104,
        fbtrace_id: fbtraceId(),
      });
    const owned = [...numbers.values()].filter((n) => n.token === token);
    if (!owned.length)
      throw new GraphFailure(401, {
        message: 'Invalid OAuth access token - Cannot parse access token',
        type: 'OAuthException',
        code: 190,
        fbtrace_id: fbtraceId(),
      });
    return owned;
  }

  function checkRate(n: NumberState, to: string): void {
    // The fake's limits as a test last set them.
    const { limits } = api;
    if (!limits) return;
    const at = now();
    n.sends = n.sends.filter((t) => t > at - 1000);
    if (n.sends.length >= limits.perSecond)
      throw cloudError(429, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.');
    const pair = n.pairs.get(to) ?? { tat: Number.NEGATIVE_INFINITY, burstStart: at, burstCount: 0 };
    if (pair.tat <= at) {
      // Paid up: this send starts a new burst.
      pair.burstStart = at;
      pair.burstCount = 0;
    } else if (at - pair.burstStart >= limits.pairBurstWindowMs || pair.burstCount >= limits.pairBurst) {
      throw cloudError(
        400,
        131056,
        '(Business Account, Consumer Account) pair rate limit hit',
        'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
      );
    }
    pair.burstCount++;
    pair.tat = Math.max(pair.tat, at) + limits.pairIntervalMs;
    n.pairs.set(to, pair);
    n.sends.push(at);
  }

  function checkInteractive(value: unknown): void {
    const i = parsed(interactiveSchema, value, 'interactive');
    if (i.type === 'button' || i.type === 'list') {
      if (!i.body) throw param100("The parameter interactive['body'] is required.");
    }
    if (i.body && i.body.text.length > 1024)
      throw param100(
        'Invalid parameter',
        "Param interactive['body']['text'] must be at most 1024 characters long.",
      );
    if (i.body && i.body.text.length === 0)
      throw param100('Invalid parameter', "Param interactive['body']['text'] must not be empty.");
    if (i.header?.type === 'text' && (i.header.text ?? '').length > 60)
      throw param100(
        'Invalid parameter',
        "Param interactive['header']['text'] must be at most 60 characters long.",
      );
    if (i.footer && i.footer.text.length > 60)
      throw param100(
        'Invalid parameter',
        "Param interactive['footer']['text'] must be at most 60 characters long.",
      );
    if (i.type === 'button') {
      const buttons = i.action.buttons ?? [];
      if (buttons.length < 1 || buttons.length > 3)
        throw invalid131009('Invalid buttons count. Min allowed buttons: 1, Max allowed buttons: 3');
      const ids = new Set<string>();
      for (const b of buttons) {
        if (b.reply.title.length < 1 || b.reply.title.length > 20)
          throw invalid131009('Button title length invalid. Min length: 1, Max length: 20');
        if (b.reply.id.length < 1 || b.reply.id.length > 256)
          throw invalid131009('Button id length invalid. Min length: 1, Max length: 256');
        if (ids.has(b.reply.id)) throw invalid131009('Duplicate button id');
        ids.add(b.reply.id);
      }
      const titles = new Set(buttons.map((b) => b.reply.title));
      if (titles.size !== buttons.length) throw invalid131009('Duplicate button title');
    }
    if (i.type === 'list') {
      const label = i.action.button ?? '';
      if (label.length < 1 || label.length > 20)
        throw invalid131009('Button title length invalid. Min length: 1, Max length: 20');
      const sections = i.action.sections ?? [];
      if (sections.length < 1 || sections.length > 10)
        throw invalid131009('Invalid sections count. Min allowed sections: 1, Max allowed sections: 10');
      if (sections.length > 1 && sections.some((s) => !s.title))
        throw invalid131009('Section title is required when a list has more than one section');
      const rows = sections.flatMap((s) => s.rows);
      if (rows.length > 10) throw invalid131009('Total row count exceed max allowed count: 10');
      const ids = new Set<string>();
      for (const s of sections) {
        if ((s.title ?? '').length > 24) throw invalid131009('Section title is too long. Max length is 24');
        if (s.rows.length === 0) throw invalid131009('Section rows count invalid. Min allowed rows: 1');
      }
      for (const r of rows) {
        if (r.title.length < 1) throw invalid131009('Row title is required');
        if (r.title.length > 24) throw invalid131009('Row title is too long. Max length is 24');
        if ((r.description ?? '').length > 72)
          throw invalid131009('Row description is too long. Max length is 72');
        if (r.id.length > 200) throw invalid131009('Row id is too long. Max length is 200');
        if (ids.has(r.id)) throw invalid131009('Row ids must be unique');
        ids.add(r.id);
      }
    }
  }

  function checkTemplate(n: NumberState, value: unknown): void {
    const t = parsed(templateSchema, value, 'template');
    const all = templates.get(n.wabaId) ?? [];
    const found = all.find((x) => x.name === t.name && x.language === t.language.code);
    if (!found || found.status === 'PENDING' || found.status === 'REJECTED')
      throw cloudError(
        404,
        132001,
        'Template name does not exist in the translation',
        `template name (${t.name}) does not exist in ${t.language.code}`,
      );
    if (found.status === 'PAUSED')
      throw cloudError(400, 132015, 'Template is Paused', `Template ${t.name} is paused due to low quality.`);
    if (found.status === 'DISABLED')
      throw cloudError(400, 132016, 'Template is disabled', `Template ${t.name} has been disabled.`);
    const body = (t.components ?? []).find((c) => c.type.toLowerCase() === 'body');
    const given = body?.parameters?.length ?? 0;
    if (given !== found.bodyParams)
      throw cloudError(
        400,
        132000,
        'Number of parameters does not match the expected number of params',
        `body: number of localizable_params (${given}) does not match the expected number of params (${found.bodyParams})`,
      );
    for (const parameter of body?.parameters ?? []) {
      const text = (parameter as { type?: unknown; text?: unknown }).text;
      if (typeof text === 'string' && /[\n\t]| {5}/.test(text))
        throw cloudError(
          400,
          132018,
          "There's an issue with the parameters in your template",
          'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
        );
    }
  }

  function checkMessage(n: NumberState, body: Record<string, unknown>, type: string): void {
    const content = body[type];
    if (content === undefined) throw param100(`The parameter ${type} is required.`);
    switch (type) {
      case 'text': {
        const t = parsed(
          z.looseObject({ body: z.string(), preview_url: z.boolean().optional() }),
          content,
          'text',
        );
        if (t.body.length > 4096) throw param100("Param text['body'] must be at most 4096 characters long.");
        if (!t.body.trim()) throw param100("Param text['body'] must not be empty.");
        return;
      }
      case 'interactive':
        checkInteractive(content);
        return;
      case 'template':
        checkTemplate(n, content);
        return;
      case 'location':
        parsed(locationSchema, content, 'location');
        return;
      case 'contacts':
        parsed(z.array(z.looseObject({})).min(1), content, 'contacts');
        return;
      case 'reaction':
        parsed(reactionSchema, content, 'reaction');
        return;
      default: {
        const m = parsed(mediaSchema, content, type);
        if (!m.id === !m.link)
          throw param100('Invalid parameter', `Param ${type} must contain exactly one of id or link.`);
        if (m.id !== undefined) {
          const stored = media.get(m.id);
          if (!stored || numbers.get(stored.phoneNumberId)?.wabaId !== n.wabaId)
            throw invalid131009(`Media id ${m.id} is not valid for this phone number.`);
        }
        if (m.link !== undefined && !/^https?:\/\/\S+$/i.test(m.link))
          throw invalid131009(`Param ${type}['link'] is not a valid URL.`);
        if ((m.caption ?? '').length > 1024)
          throw param100(
            'Invalid parameter',
            `Param ${type}['caption'] must be at most 1024 characters long.`,
          );
        if (m.caption !== undefined && (type === 'audio' || type === 'sticker'))
          throw param100('Invalid parameter', `Param ${type}['caption'] is not supported for ${type}.`);
      }
    }
  }

  function messagesEndpoint(n: NumberState, raw: unknown): unknown {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw param100('Invalid parameter');
    const body = raw as Record<string, unknown>;
    if (body.messaging_product === undefined) throw param100('The parameter messaging_product is required.');
    if (body.messaging_product !== 'whatsapp')
      throw param100(
        `Param messaging_product must be one of {WHATSAPP} - got "${String(body.messaging_product)}".`,
      );
    if (body.status !== undefined) {
      const read = parsed(readSchema, body, 'body');
      if (!n.inbound.has(read.message_id))
        throw invalid131009(
          `Message id ${read.message_id} is not valid: no such message was received by this number.`,
        );
      return { success: true };
    }
    if (body.to === undefined || body.to === '') throw param100('The parameter to is required.');
    if (typeof body.to !== 'string') throw param100('Invalid parameter', 'Param to must be a string.');
    if (body.recipient_type !== undefined && body.recipient_type !== 'individual')
      throw param100('Invalid parameter', 'Param recipient_type must be individual.');
    const type = body.type === undefined ? 'text' : String(body.type);
    if (!(MESSAGE_TYPES as readonly string[]).includes(type))
      throw param100(
        `Param type must be one of {${MESSAGE_TYPES.join(', ').toUpperCase()}} - got "${type}".`,
      );
    checkMessage(n, body, type);
    if (body.context !== undefined)
      parsed(z.looseObject({ message_id: z.string() }), body.context, 'context');
    const to = waIdOf(body.to);
    if (to.length < 7 || to.length > 15)
      throw cloudError(
        400,
        131030,
        'Recipient phone number not in allowed list',
        `${body.to} is not a valid phone number.`,
      );
    checkRate(n, to);
    const at = now();
    const message: SentMessage = {
      id: wamid(),
      phoneNumberId: n.phoneNumberId,
      to,
      type,
      payload: body,
      at,
      status: 'accepted',
    };
    if (blocked.has(to))
      message.failure = statusError(131026, 'Message undeliverable', 'Message Undeliverable.');
    else if (type !== 'template') {
      const last = n.lastInbound.get(to);
      if (last === undefined || at - last > WINDOW_MS) {
        if (api.reengagement === 'sync') throw cloudError(400, 131047, 'Re-engagement message', REENGAGEMENT);
        message.failure = statusError(131047, 'Re-engagement message', REENGAGEMENT);
      }
    }
    messages.set(message.id, message);
    sentList.push(message);
    if (message.failure) queue.push({ message, status: 'failed' });
    else queue.push({ message, status: 'sent' }, { message, status: 'delivered' });
    if (options.autoStatuses) setImmediate(() => (autoFlush = autoFlush.then(flushStatuses, flushStatuses)));
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: to }],
      messages: [{ id: message.id, ...(type === 'template' ? { message_status: 'accepted' } : {}) }],
    };
  }

  function mediaInfo(owned: NumberState[], id: string, base: string): unknown {
    const m = media.get(id);
    const owner = m && numbers.get(m.phoneNumberId);
    if (!m || !owner || !owned.some((n) => n.wabaId === owner.wabaId)) throw unknownObject('get', id);
    const ext = Math.floor((now() + 5 * 60_000) / 1000);
    return {
      messaging_product: 'whatsapp',
      url: `${base}/whatsapp_business/attachments/?mid=${id}&ext=${ext}&hash=${m.hash.slice(0, 16)}`,
      mime_type: m.mimeType,
      sha256: m.hash,
      file_size: m.bytes.byteLength,
      id,
    };
  }

  function route(req: http.IncomingMessage, raw: string, base: string): [number, unknown] {
    const url = new URL(req.url ?? '/', 'http://fake');
    const parts = url.pathname.split('/').filter(Boolean);
    const method = req.method ?? 'GET';
    const versioned = /^v\d+\.\d+$/.test(parts[0] ?? '') ? parts.slice(1) : parts;
    const owned = authorize(req);
    if (method === 'POST' && versioned.length === 2 && versioned[1] === 'messages') {
      const n = numbers.get(versioned[0]);
      if (!n || !owned.includes(n)) throw unknownObject('post', versioned[0]);
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        throw param100('Invalid parameter', 'The request body is not valid JSON.');
      }
      return [200, messagesEndpoint(n, body)];
    }
    // The app subscribed to a business account's webhooks (Graph API: POST /{waba-id}/subscribed_apps).
    if (method === 'POST' && versioned.length === 2 && versioned[1] === 'subscribed_apps') {
      if (!owned.some((n) => n.wabaId === versioned[0])) throw unknownObject('post', versioned[0]);
      return [200, { success: true }];
    }
    if (method === 'GET' && versioned.length === 1) {
      const n = numbers.get(versioned[0]);
      if (n) {
        if (!owned.includes(n)) throw unknownObject('get', versioned[0]);
        return [
          200,
          {
            verified_name: n.verifiedName,
            display_phone_number: n.displayPhoneNumber,
            id: n.phoneNumberId,
            quality_rating: 'GREEN',
          },
        ];
      }
      return [200, mediaInfo(owned, versioned[0], base)];
    }
    if (versioned.length >= 1) throw unknownObject(method === 'GET' ? 'get' : 'post', versioned[0]);
    throw new GraphFailure(400, {
      message: `Unknown path components: ${url.pathname}`,
      type: 'OAuthException',
      code: 2500,
      fbtrace_id: fbtraceId(),
    });
  }

  function record(call: RecordedCall) {
    calls.push(call);
    recorded.emit('call', call);
  }

  /** GET {url from the media endpoint}: the bytes, with the Bearer token of a number that may see them. */
  function download(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    const id = url.searchParams.get('mid') ?? '';
    const m = media.get(id);
    const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const owner = m && numbers.get(m.phoneNumberId);
    const allowed =
      owner && token && [...numbers.values()].some((n) => n.token === token && n.wabaId === owner.wabaId);
    const status = !m ? 404 : allowed ? 200 : 401;
    record({
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      body: null,
      status,
      answer: null,
      at: now(),
    });
    if (status !== 200 || !m) {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 401 ? 'Unauthorized' : 'Not Found');
      return;
    }
    res.writeHead(200, { 'content-type': m.mimeType, 'content-length': m.bytes.byteLength });
    res.end(Buffer.from(m.bytes));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // Not JSON: the call records the text.
      }
      const fate = api.intercept
        ? await api.intercept({ method: req.method ?? 'GET', path: url.pathname, body })
        : 'process';
      if (interrupted(fate, req, res)) return;
      if (url.pathname === '/whatsapp_business/attachments/') {
        download(req, res, url);
        return;
      }
      let status: number;
      let answer: unknown;
      try {
        if (size > MAX_BODY) throw param100('Invalid parameter', 'The request body is too large.');
        [status, answer] = route(req, raw, api.url);
      } catch (error) {
        if (!(error instanceof GraphFailure)) throw error;
        status = error.status;
        answer = { error: error.body };
      }
      record({ method: req.method ?? 'GET', path: url.pathname, body, status, answer, at: now() });
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' };
      if (status === 401) headers['www-authenticate'] = 'OAuth "Facebook Platform" "invalid_token"';
      res.writeHead(status, headers);
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function inboundObject(n: NumberState, message: InboundMessage, id: string): Record<string, unknown> {
    const out: Record<string, unknown> = { from: message.from, id, timestamp: seconds() };
    if (message.replyTo) out.context = { from: n.displayPhoneNumber, id: message.replyTo };
    switch (message.type) {
      case 'text':
        return { ...out, type: 'text', text: { body: message.text } };
      case 'location': {
        const { latitude, longitude, name, address } = message;
        return { ...out, type: 'location', location: { latitude, longitude, name, address } };
      }
      case 'contacts':
        return { ...out, type: 'contacts', contacts: message.contacts };
      case 'button_reply':
        return {
          ...out,
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: message.id, title: message.title } },
        };
      case 'list_reply':
        return {
          ...out,
          type: 'interactive',
          interactive: {
            type: 'list_reply',
            list_reply: {
              id: message.id,
              title: message.title,
              ...(message.description !== undefined ? { description: message.description } : {}),
            },
          },
        };
      case 'button':
        return { ...out, type: 'button', button: { payload: message.payload, text: message.text } };
      default: {
        const mime = message.mimeType ?? 'application/octet-stream';
        const mediaId =
          message.mediaId ?? api.addMedia(n.phoneNumberId, message.bytes ?? new Uint8Array(), mime);
        const stored = media.get(mediaId);
        const content: Record<string, unknown> = {
          id: mediaId,
          mime_type: stored?.mimeType ?? mime,
          // Webhooks carry the hash base64-encoded; the media endpoint answers it in hex.
          sha256: stored ? Buffer.from(stored.hash, 'hex').toString('base64') : '',
        };
        if (message.caption !== undefined) content.caption = message.caption;
        if (message.filename !== undefined) content.filename = message.filename;
        if (message.type === 'sticker') content.animated = false;
        if (message.type === 'audio') content.voice = false;
        return { ...out, type: message.type, [message.type]: content };
      }
    }
  }

  const api: FakeCloudApi = {
    url: `http://127.0.0.1:${port}`,
    version,
    intercept: null,
    calls,
    deliveries,
    limits,
    reengagement: 'status',
    addNumber(input = {}) {
      counter++;
      const n: NumberState = {
        phoneNumberId: input.phoneNumberId ?? String(100_000_000_000_000 + counter),
        wabaId: input.wabaId ?? String(200_000_000_000_000 + counter),
        token: input.token ?? `EAAG${randomBytes(24).toString('base64url')}`,
        appSecret: input.appSecret ?? randomBytes(16).toString('hex'),
        displayPhoneNumber: input.displayPhoneNumber ?? String(15_550_000_000 + counter),
        verifiedName: input.verifiedName ?? `Fake business ${counter}`,
        webhook: null,
        inbound: new Set(),
        lastInbound: new Map(),
        sends: [],
        pairs: new Map(),
      };
      numbers.set(n.phoneNumberId, n);
      return publicNumber(n);
    },
    number(phoneNumberId) {
      return publicNumber(state(phoneNumberId));
    },
    async setWebhook(id, webhook) {
      const challenge = String(1_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
      const url = new URL(webhook.url);
      url.searchParams.set('hub.mode', 'subscribe');
      url.searchParams.set('hub.challenge', challenge);
      url.searchParams.set('hub.verify_token', webhook.verifyToken);
      let status = 0;
      let body = '';
      try {
        const res = await fetch(url);
        status = res.status;
        body = await res.text();
      } catch (error) {
        body = String(error);
      }
      deliveries.push({ kind: 'verify', url: url.toString(), payload: null, status, body, at: now() });
      const ok = status === 200 && body === challenge;
      if (ok) {
        const n = numbers.get(id);
        if (n) n.webhook = webhook;
        else if ([...numbers.values()].some((x) => x.wabaId === id)) wabaWebhooks.set(id, webhook);
        else throw new Error(`the fake Cloud API has no number or WABA ${id}`);
      }
      return ok;
    },
    async sendInbound(phoneNumberId, message) {
      const n = state(phoneNumberId);
      const id = message.id ?? wamid();
      const value = {
        contacts: [{ profile: { name: message.name ?? `User ${message.from}` }, wa_id: message.from }],
        messages: [inboundObject(n, message, id)],
      };
      n.inbound.add(id);
      n.lastInbound.set(waIdOf(message.from), now());
      const delivery = await post(n, 'messages', envelope(n, value));
      return { status: delivery.status, body: delivery.body, messageId: id };
    },
    async deliver(phoneNumberId, payload, opts = {}) {
      const delivery = await post(state(phoneNumberId), 'raw', payload, opts.signature);
      return { status: delivery.status, body: delivery.body };
    },
    flushStatuses,
    async markDelivered(id) {
      const message = messages.get(id);
      if (!message) throw new Error(`no sent message ${id}`);
      if (message.status === 'accepted') await pushStatus(message, 'sent');
      return pushStatus(message, 'delivered');
    },
    async markRead(id) {
      const message = messages.get(id);
      if (!message) throw new Error(`no sent message ${id}`);
      if (message.status === 'accepted') await pushStatus(message, 'sent');
      if (message.status === 'sent') await pushStatus(message, 'delivered');
      return pushStatus(message, 'read');
    },
    blockRecipient(waId) {
      blocked.add(waIdOf(waId));
    },
    addMedia(phoneNumberId, bytes, mimeType) {
      state(phoneNumberId);
      const id = String(900_000_000_000_000 + media.size + 1);
      const hash = createHash('sha256').update(bytes).digest('hex');
      media.set(id, { id, phoneNumberId, bytes, mimeType, hash });
      return id;
    },
    addTemplate(wabaId, input) {
      const template: FakeTemplate = {
        name: input.name,
        language: input.language,
        bodyParams: input.bodyParams,
        status: input.status ?? 'APPROVED',
        category: input.category ?? 'UTILITY',
      };
      const list = (templates.get(wabaId) ?? []).filter(
        (t) => !(t.name === template.name && t.language === template.language),
      );
      templates.set(wabaId, [...list, template]);
      return template;
    },
    sent(phoneNumberId, to) {
      const wa = to === undefined ? undefined : waIdOf(to);
      return sentList.filter((m) => m.phoneNumberId === phoneNumberId && (wa === undefined || m.to === wa));
    },
    sendTimes(phoneNumberId, to) {
      return api.sent(phoneNumberId, to).map((m) => m.at);
    },
    lastInbound(phoneNumberId, waId) {
      return state(phoneNumberId).lastInbound.get(waIdOf(waId));
    },
    callsOf(path) {
      return calls.filter((c) => (typeof path === 'string' ? c.path === path : path.test(c.path)));
    },
    waitForCall(match, timeoutMs = 10_000) {
      const found = calls.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onCall = (call: RecordedCall) => {
          if (!match(call)) return;
          clearTimeout(timer);
          recorded.off('call', onCall);
          resolve(call);
        };
        const timer = setTimeout(() => {
          recorded.off('call', onCall);
          reject(new Error(`no matching Cloud API call within ${timeoutMs} ms`));
        }, timeoutMs);
        recorded.on('call', onCall);
      });
    },
    onCall(listener) {
      recorded.on('call', listener);
      return () => recorded.off('call', listener);
    },
    close: async () => {
      await autoFlush.catch(() => undefined);
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
  return api;
}
