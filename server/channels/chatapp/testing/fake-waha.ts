import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { z } from 'zod';
import { type Interception, interrupted } from '@/server/testing/intercepted';

/**
 * A WAHA (WhatsApp HTTP API, devlikeapro/waha) server on 127.0.0.1 for tests, written from WAHA's
 * documentation and its NestJS controllers: sessions with their status machine, the QR, the
 * chatting and contacts calls a bot makes, media downloads, and the webhooks WAHA sends (signed
 * with HMAC-SHA512 when a key is configured). Errors are NestJS bodies with WAHA's status codes.
 * Every request is recorded. Behaviours a bot meets, each with its source:
 * - a file by link is a `RemoteFile` whose `mimetype` is required, `filename` optional
 *   (WAHA's src/structures/files.dto.ts; its send-messages docs): a file without a type is a 400;
 * - a send, seen or typing call on a session that is not WORKING is a 422 "Session status is not
 *   as expected" naming the status (WAHA's SessionManager waitUntilStatus);
 * - WAHA Core sends no files: a 422 "available only in Plus version" (waha.devlike.pro, Plus).
 */

export type WahaStatus = 'STOPPED' | 'STARTING' | 'SCAN_QR_CODE' | 'WORKING' | 'FAILED';

export interface RecordedWahaCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
}

export interface WahaSentMessage {
  id: string;
  session: string;
  chatId: string;
  kind: 'text' | 'image' | 'file';
  /** The text, or the caption of a media message ('' when none). */
  text: string;
  file?: { url: string; mimetype: string; filename?: string | null };
  replyTo?: string;
}

/** What one webhook target answered to one delivery (status 0: it could not be reached). */
export interface WebhookResult {
  url: string;
  status: number;
  body: string;
}

export interface WahaMe {
  id: string;
  pushName: string;
}

export interface WahaInbound {
  /** The sender's chat id, e.g. 34600111222@c.us. */
  from: string;
  body?: string;
  media?: { bytes: Buffer; mimetype: string; filename?: string };
  location?: { latitude: number; longitude: number; description?: string };
  vCards?: string[];
  id?: string;
  /** Unix seconds. */
  timestamp?: number;
}

/** A request as `intercept` sees it. */
export interface InterceptedWahaRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeWaha {
  /** http://127.0.0.1:<port>; the API lives under /api. */
  url: string;
  apiKey: string;
  /**
   * The test's hand on the network: called for each request as it arrives; its answer (awaited,
   * so a test can hold a request and make a slow answer) says what happens to it. Unset, every
   * request is processed.
   */
  intercept: ((request: InterceptedWahaRequest) => Interception | Promise<Interception>) | null;
  /** The edition: Core refuses files (a test may change it). */
  tier: 'CORE' | 'PLUS';
  calls: RecordedWahaCall[];
  /** Every accepted sendText/sendImage/sendFile, in order. */
  sent: WahaSentMessage[];
  onCall(listener: (call: RecordedWahaCall) => void): () => void;
  session(name: string): { status: string; me: WahaMe | null; config: unknown } | undefined;
  /** A new QR value; sends session.status SCAN_QR_CODE again, as WAHA does on every rotation. */
  rotateQr(name: string): Promise<void>;
  /** The phone scanned the QR: SCAN_QR_CODE → WORKING with `me` set. */
  pair(name: string, phoneDigits: string, pushName?: string): Promise<void>;
  /** The phone unlinked the device: → FAILED; a restart asks for a QR again. */
  fail(name: string): Promise<void>;
  /** A number check-exists reports as on WhatsApp. */
  registerNumber(digits: string): void;
  /** A user's message: a `message` webhook; media is served under /api/files. */
  receive(name: string, message: WahaInbound): Promise<WebhookResult[]>;
  /** A `message.ack` webhook for a message the session sent. */
  ack(name: string, messageId: string, ack: -1 | 1 | 2 | 3 | 4): Promise<WebhookResult[]>;
  /**
   * POSTs exactly `body` to every webhook of the session, signed with each webhook's key; `headers`
   * override the computed ones (an empty string drops a header), for forged or unsigned deliveries.
   */
  deliverRaw(name: string, body: string, headers?: Record<string, string>): Promise<WebhookResult[]>;
  /** Resolves once no status transition or webhook POST is pending. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const ENGINE = 'WEBJS';
const WAHA_VERSION = '2025.9.1';
const MAX_TEXT = 65536;
const MAX_BODY = 20 * 1024 * 1024;
const PLUS_ONLY =
  'The feature is available only in Plus version. Check this out: https://waha.devlike.pro/docs/how-to/plus-version';
const ACK_NAMES: Record<number, string> = { [-1]: 'ERROR', 1: 'SERVER', 2: 'DEVICE', 3: 'READ', 4: 'PLAYED' };
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'oga',
  'audio/mpeg': 'mp3',
  'video/mp4': 'mp4',
  'application/pdf': 'pdf',
};

/** A NestJS HttpException: the status and the JSON body the exception filter writes. */
class WahaFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`WAHA ${status}`);
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  422: 'Unprocessable Entity',
};

function nestError(status: number, message: string | string[]): WahaFailure {
  return new WahaFailure(status, { statusCode: status, message, error: REASONS[status] });
}

function notFound(name: string): WahaFailure {
  return nestError(404, `Session "${name}" not found`);
}

/** What WAHA's waitUntilStatus throws (here at once; WAHA first waits a few seconds). */
function notInStatus(name: string, status: WahaStatus, expected: WahaStatus[]): WahaFailure {
  return new WahaFailure(422, {
    error: 'Session status is not as expected. Try again later or restart the session',
    session: name,
    status,
    expected,
  });
}

// Custom messages are the tail of class-validator's sentence; the property path is prefixed.
const url = z.url({ protocol: /^https?$/, error: 'must be a URL address' });
const chatId = z.string({ error: 'must be a string' }).regex(/^[^@\s]+@(c\.us|s\.whatsapp\.net|lid|g\.us)$/, {
  error: 'must be a chat id ending in @c.us, @s.whatsapp.net, @lid or @g.us',
});
const sessionName = z.string().default('default');

// Loose objects: WAHA keeps config fields this fake does not model (proxy, debug, noweb, ...).
const webhookSchema = z.looseObject({
  url,
  events: z.array(z.string()),
  hmac: z.looseObject({ key: z.string().nullish() }).nullish(),
  retries: z.looseObject({}).nullish(),
  customHeaders: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
});
const configSchema = z.looseObject({
  webhooks: z.array(webhookSchema).optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
type SessionConfig = z.infer<typeof configSchema>;
type WebhookConfig = z.infer<typeof webhookSchema>;

const createSchema = z.object({
  name: z.string().min(1).optional(),
  start: z.boolean().default(true),
  config: configSchema.nullish(),
});
const updateSchema = z.object({ config: configSchema.nullish() });
const sendTextSchema = z.object({
  session: sessionName,
  chatId,
  text: z.string().max(MAX_TEXT),
  reply_to: z.string().nullish(),
  linkPreview: z.boolean().optional(),
});
const sendFileSchema = z.object({
  session: sessionName,
  chatId,
  file: z.object({ url, mimetype: z.string(), filename: z.string().nullish() }),
  caption: z.string().max(MAX_TEXT).nullish(),
  reply_to: z.string().nullish(),
});
const sendSeenSchema = z.object({
  session: sessionName,
  chatId,
  messageIds: z.array(z.string()).optional(),
  participant: z.string().nullish(),
});
const typingSchema = z.object({ session: sessionName, chatId });
const checkExistsSchema = z.object({ phone: z.string().min(1), session: sessionName });
const qrSchema = z.object({ format: z.enum(['image', 'raw']).default('image') });

const TYPE_WORDS: Record<string, string> = {
  string: 'must be a string',
  boolean: 'must be a boolean value',
  array: 'must be an array',
  object: 'must be an object',
  number: 'must be a number conforming to the specified constraints',
};

/** class-validator's sentences (one per failing constraint) in a NestJS 400, as WAHAValidationPipe answers. */
function validated<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'invalid_type') {
      return issue.input === undefined
        ? `${path} should not be empty`
        : `${path} ${TYPE_WORDS[issue.expected] ?? `must be a ${issue.expected}`}`;
    }
    if (issue.code === 'too_big' && issue.origin === 'string')
      return `${path} must be shorter than or equal to ${issue.maximum} characters`;
    if (issue.code === 'too_small' && issue.origin === 'string') return `${path} should not be empty`;
    if (issue.code === 'invalid_value')
      return `${path} must be one of the following values: ${issue.values.join(', ')}`;
    return `${path} ${issue.message}`;
  });
  throw nestError(400, messages);
}

function hex32(): string {
  return randomBytes(16).toString('hex');
}

// PNG chunks carry a CRC-32 of their type and data.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real 16×16 grayscale PNG whose pixels come from the QR value, so each rotation's image differs. */
function qrPng(value: string): Buffer {
  const size = 16;
  const seed = createHmac('sha256', 'fake-waha-qr').update(value).digest();
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(size + 1); // filter byte 0, then one byte per pixel
    for (let x = 0; x < size; x++) row[x + 1] = (seed[(y * size + x) % seed.length] >> (x % 8)) & 1 ? 0 : 255;
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Shaped like WhatsApp Web's QR payload: ref, then the keys, comma separated. */
function qrValue(): string {
  const part = (n: number) => randomBytes(n).toString('base64');
  return `2@${part(48)},${part(32)},${part(32)},${part(32)},1`;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

interface SessionState {
  name: string;
  status: WahaStatus;
  statuses: { status: WahaStatus; timestamp: number }[];
  config: SessionConfig | null;
  me: WahaMe | null;
  /** The device is linked to a phone: a restart comes back WORKING without a QR. */
  linked: boolean;
  qr: string;
  files: Map<string, { bytes: Buffer; mimetype: string }>;
  /** Bumped by every start/stop so a stale "next tick" transition does nothing. */
  generation: number;
  /** Webhooks of one session go out in order, as WAHA's per-session conductor sends them. */
  chain: Promise<unknown>;
}

export async function startFakeWaha(
  options: { apiKey?: string; tier?: 'CORE' | 'PLUS' } = {},
): Promise<FakeWaha> {
  const apiKey = options.apiKey ?? `waha-${hex32()}`;
  const sessions = new Map<string, SessionState>();
  const registered = new Set<string>();
  const calls: RecordedWahaCall[] = [];
  const sent: WahaSentMessage[] = [];
  const recorded = new EventEmitter();
  const pending = new Set<Promise<unknown>>();

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.add(promise);
    promise.then(
      () => pending.delete(promise),
      () => pending.delete(promise),
    );
    return promise;
  }

  function info(s: SessionState) {
    return { name: s.name, status: s.status, config: s.config, me: s.me, engine: { engine: ENGINE } };
  }

  function envelope(s: SessionState, event: string, payload: unknown) {
    return {
      id: `evt_${randomBytes(13).toString('hex')}`,
      timestamp: Date.now(),
      event,
      session: s.name,
      metadata: s.config?.metadata ?? null,
      me: s.me,
      payload,
      engine: ENGINE,
      environment: { version: WAHA_VERSION, engine: ENGINE, tier: api.tier },
    };
  }

  /** One POST with WAHA's headers; `overrides` replace them (empty string: left out). */
  async function post(
    hook: WebhookConfig,
    raw: string,
    overrides: Record<string, string> = {},
  ): Promise<WebhookResult> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-webhook-request-id': randomUUID(),
      'x-webhook-timestamp': String(Date.now()),
    };
    const key = hook.hmac?.key;
    if (key) {
      headers['x-webhook-hmac'] = createHmac('sha512', key).update(Buffer.from(raw, 'utf8')).digest('hex');
      headers['x-webhook-hmac-algorithm'] = 'sha512';
    }
    for (const h of hook.customHeaders ?? []) headers[h.name.toLowerCase()] = h.value;
    for (const [name, value] of Object.entries(overrides)) {
      if (value === '') delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    try {
      const res = await fetch(hook.url, { method: 'POST', headers, body: raw });
      return { url: hook.url, status: res.status, body: await res.text() };
    } catch (error) {
      // WAHA logs an unreachable webhook and carries on; the result says so with status 0.
      return { url: hook.url, status: 0, body: String(error) };
    }
  }

  function enqueue(s: SessionState, send: () => Promise<WebhookResult[]>): Promise<WebhookResult[]> {
    const next = s.chain.then(send);
    s.chain = next.catch(() => undefined);
    return track(next);
  }

  function emit(s: SessionState, event: string, payload: unknown): Promise<WebhookResult[]> {
    // Built now, so the body describes the moment of the event even if it is sent later.
    const raw = JSON.stringify(envelope(s, event, payload));
    const hooks = (s.config?.webhooks ?? []).filter(
      (h) => h.events.includes(event) || h.events.includes('*'),
    );
    return enqueue(s, () => Promise.all(hooks.map((h) => post(h, raw))));
  }

  function change(s: SessionState, status: WahaStatus): Promise<WebhookResult[]> {
    s.status = status;
    s.statuses = [...s.statuses, { status, timestamp: Date.now() }].slice(-3);
    return emit(s, 'session.status', { status, statuses: s.statuses });
  }

  /** STARTING now; on the next tick WORKING when the device is linked, else a fresh QR. */
  function boot(s: SessionState): void {
    const generation = ++s.generation;
    if (!s.linked) s.me = null;
    void change(s, 'STARTING');
    track(
      new Promise<void>((resolve) =>
        setImmediate(() => {
          if (sessions.get(s.name) === s && s.generation === generation && s.status === 'STARTING') {
            if (!s.linked) s.qr = qrValue();
            void change(s, s.linked ? 'WORKING' : 'SCAN_QR_CODE');
          }
          resolve();
        }),
      ),
    );
  }

  function halt(s: SessionState): void {
    s.generation++;
    if (s.status !== 'STOPPED') void change(s, 'STOPPED');
  }

  function existing(name: string): SessionState {
    const s = sessions.get(name);
    if (!s) throw notFound(name);
    return s;
  }

  function working(name: string): SessionState & { me: WahaMe } {
    const s = existing(name);
    if (s.status !== 'WORKING' || !s.me) throw notInStatus(name, s.status, ['WORKING']);
    return s as SessionState & { me: WahaMe };
  }

  function accept(message: Omit<WahaSentMessage, 'id'>, me: WahaMe, hasMedia: boolean) {
    const id = `true_${message.chatId}_${hex32().toUpperCase()}`;
    sent.push({ id, ...message });
    return {
      id,
      timestamp: Math.floor(Date.now() / 1000),
      from: me.id,
      fromMe: true,
      to: message.chatId,
      body: message.text,
      hasMedia,
      ack: 1,
      ackName: ACK_NAMES[1],
    };
  }

  type Answer = [number, unknown] | [number, Buffer, string];

  function sessionsRoute(method: string, parts: string[], body: unknown): Answer | null {
    if (parts.length === 0 && method === 'POST') {
      const request = validated(createSchema, body);
      const name = request.name ?? `session_${hex32().slice(0, 26)}`;
      if (sessions.has(name)) throw nestError(422, `Session '${name}' already exists. Use PUT to update it.`);
      const s: SessionState = {
        name,
        status: 'STOPPED',
        statuses: [],
        config: request.config ?? null,
        me: null,
        linked: false,
        qr: qrValue(),
        files: new Map(),
        generation: 0,
        chain: Promise.resolve(),
      };
      sessions.set(name, s);
      if (request.start) boot(s);
      return [201, info(s)];
    }
    if (parts.length === 1) {
      const name = parts[0];
      if (method === 'GET') return [200, info(existing(name))];
      if (method === 'PUT') {
        const s = existing(name);
        const request = validated(updateSchema, body);
        const running = s.status !== 'STOPPED';
        if (running) s.generation++;
        s.config = request.config ?? null;
        if (running) boot(s);
        return [200, info(s)];
      }
      if (method === 'DELETE') {
        // Idempotent in WAHA: an unknown session is already deleted.
        const s = sessions.get(name);
        if (s) {
          halt(s);
          sessions.delete(name);
        }
        return [200, Buffer.alloc(0), 'text/plain'];
      }
      return null;
    }
    if (parts.length === 2 && method === 'POST') {
      const [name, action] = parts;
      const s = existing(name);
      if (action === 'start') {
        if (s.status !== 'STOPPED') throw nestError(422, `Session '${name}' is already started`);
        boot(s);
      } else if (action === 'stop') {
        halt(s);
      } else if (action === 'restart') {
        boot(s);
      } else if (action === 'logout') {
        s.linked = false;
        s.me = null;
        if (s.status !== 'STOPPED') boot(s);
      } else {
        return null;
      }
      return [201, info(s)];
    }
    return null;
  }

  function route(req: http.IncomingMessage, url: URL, body: unknown): Answer | null {
    const method = req.method ?? 'GET';
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'api') return null;
    const rest = parts.slice(1);
    const query = Object.fromEntries(url.searchParams);

    if (rest[0] === 'sessions') return sessionsRoute(method, rest.slice(1), body);

    if (method === 'GET' && rest.length === 3 && rest[1] === 'auth' && rest[2] === 'qr') {
      const { format } = validated(qrSchema, query);
      const s = existing(rest[0]);
      if (s.status !== 'SCAN_QR_CODE') throw notInStatus(s.name, s.status, ['SCAN_QR_CODE']);
      if (format === 'raw') return [200, { value: s.qr }];
      const png = qrPng(s.qr);
      // WAHA answers the image itself unless the client asks for JSON.
      if ((req.headers.accept ?? '').includes('application/json'))
        return [200, { mimetype: 'image/png', data: png.toString('base64') }];
      return [200, png, 'image/png'];
    }

    if (method === 'GET' && rest[0] === 'files' && rest.length === 3) {
      const file = sessions.get(rest[1])?.files.get(rest[2]);
      if (!file) throw nestError(404, 'File not found');
      return [200, file.bytes, file.mimetype];
    }

    if (method === 'GET' && rest[0] === 'contacts' && rest[1] === 'check-exists' && rest.length === 2) {
      const request = validated(checkExistsSchema, query);
      working(request.session);
      const digits = request.phone.replace(/\D/g, '');
      return [
        200,
        registered.has(digits) ? { numberExists: true, chatId: `${digits}@c.us` } : { numberExists: false },
      ];
    }

    if (method !== 'POST' || rest.length !== 1) return null;
    switch (rest[0]) {
      case 'sendText': {
        const request = validated(sendTextSchema, body);
        const s = working(request.session);
        const message = {
          session: s.name,
          chatId: request.chatId,
          kind: 'text' as const,
          text: request.text,
        };
        return [
          201,
          accept(request.reply_to ? { ...message, replyTo: request.reply_to } : message, s.me, false),
        ];
      }
      case 'sendImage':
      case 'sendFile': {
        const request = validated(sendFileSchema, body);
        const s = working(request.session);
        // In WAHA Core the engine refuses media sends once the session is found working.
        if (api.tier === 'CORE') throw nestError(422, PLUS_ONLY);
        const message: Omit<WahaSentMessage, 'id'> = {
          session: s.name,
          chatId: request.chatId,
          kind: rest[0] === 'sendImage' ? 'image' : 'file',
          text: request.caption ?? '',
          file: request.file,
        };
        if (request.reply_to) message.replyTo = request.reply_to;
        return [201, accept(message, s.me, true)];
      }
      case 'sendSeen':
        working(validated(sendSeenSchema, body).session);
        return [201, {}];
      case 'startTyping':
      case 'stopTyping':
        working(validated(typingSchema, body).session);
        return [201, {}];
      default:
        return null;
    }
  }

  function authorized(req: http.IncomingMessage): boolean {
    const given = req.headers['x-api-key'];
    return typeof given === 'string' && safeEqual(given, apiKey);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake-waha');
      const method = req.method ?? 'GET';
      const raw = Buffer.concat(chunks).toString('utf8');
      if (api.intercept) {
        let parsed: unknown = raw || null;
        try {
          parsed = raw ? JSON.parse(raw) : null;
        } catch {
          // Not JSON: intercept sees the text.
        }
        if (interrupted(await api.intercept({ method, path: url.pathname, body: parsed }), req, res)) return;
      }
      let status: number;
      let answer: unknown;
      let bytes: Buffer | null = null;
      let contentType = 'application/json; charset=utf-8';
      let body: unknown = raw || null;
      try {
        if (!authorized(req)) throw new WahaFailure(401, { message: 'Unauthorized', statusCode: 401 });
        if (size > MAX_BODY)
          throw new WahaFailure(413, { statusCode: 413, message: 'request entity too large' });
        if (raw) {
          try {
            body = JSON.parse(raw);
          } catch (error) {
            throw nestError(400, (error as Error).message);
          }
        }
        const routed = route(req, url, body);
        if (!routed) throw nestError(404, `Cannot ${method} ${url.pathname}`);
        status = routed[0];
        if (routed.length === 3) {
          bytes = routed[1];
          contentType = routed[2];
          answer = null;
        } else {
          answer = routed[1];
        }
      } catch (error) {
        if (!(error instanceof WahaFailure)) throw error;
        status = error.status;
        answer = error.body;
      }
      const call: RecordedWahaCall = {
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        status,
      };
      const out = bytes ?? Buffer.from(JSON.stringify(answer));
      res.writeHead(status, { 'content-type': contentType, 'content-length': out.length });
      res.end(out);
      calls.push(call);
      recorded.emit('call', call);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function inStatus(name: string, expected: WahaStatus): SessionState {
    const s = sessions.get(name);
    if (!s) throw new Error(`fake WAHA: no session "${name}"`);
    if (s.status !== expected)
      throw new Error(`fake WAHA: session "${name}" is ${s.status}, not ${expected}`);
    return s;
  }

  const api: FakeWaha = {
    url: base,
    apiKey,
    intercept: null,
    tier: options.tier ?? 'PLUS',
    calls,
    sent,
    onCall(listener) {
      recorded.on('call', listener);
      return () => recorded.off('call', listener);
    },
    session(name) {
      const s = sessions.get(name);
      return s && { status: s.status, me: s.me, config: s.config };
    },
    async rotateQr(name) {
      const s = inStatus(name, 'SCAN_QR_CODE');
      s.qr = qrValue();
      await change(s, 'SCAN_QR_CODE');
    },
    async pair(name, phoneDigits, pushName = 'Fake WAHA') {
      const s = inStatus(name, 'SCAN_QR_CODE');
      s.me = { id: `${phoneDigits.replace(/\D/g, '')}@c.us`, pushName };
      s.linked = true;
      await change(s, 'WORKING');
    },
    async fail(name) {
      const s = sessions.get(name);
      if (!s) throw new Error(`fake WAHA: no session "${name}"`);
      s.generation++;
      s.linked = false;
      await change(s, 'FAILED');
    },
    registerNumber(digits) {
      registered.add(digits.replace(/\D/g, ''));
    },
    receive(name, message) {
      const s = inStatus(name, 'WORKING');
      const me = s.me as WahaMe;
      const id = message.id ?? `false_${message.from}_${hex32().toUpperCase()}`;
      let media: { url: string; mimetype: string; filename: string | null } | null = null;
      if (message.media) {
        const ext =
          /\.([A-Za-z0-9]+)$/.exec(message.media.filename ?? '')?.[1] ??
          EXTENSIONS[message.media.mimetype] ??
          'bin';
        const file = `${id}.${ext}`;
        s.files.set(file, { bytes: message.media.bytes, mimetype: message.media.mimetype });
        media = {
          url: `${base}/api/files/${encodeURIComponent(s.name)}/${encodeURIComponent(file)}`,
          mimetype: message.media.mimetype,
          filename: message.media.filename ?? null,
        };
      }
      const payload: Record<string, unknown> = {
        id,
        timestamp: message.timestamp ?? Math.floor(Date.now() / 1000),
        from: message.from,
        fromMe: false,
        to: me.id,
        body: message.body ?? '',
        hasMedia: media !== null,
        media,
        ack: 1,
        ackName: ACK_NAMES[1],
        replyTo: null,
        _data: {},
      };
      if (message.location) payload.location = message.location;
      if (message.vCards) payload.vCards = message.vCards;
      return emit(s, 'message', payload);
    },
    ack(name, messageId, ack) {
      const s = inStatus(name, 'WORKING');
      const me = s.me as WahaMe;
      // Our ids are true_<chatId>_<hex>; a foreign id falls back to what `sent` knows.
      const chat =
        sent.find((m) => m.id === messageId)?.chatId ?? /^true_(.+)_[0-9A-F]+$/i.exec(messageId)?.[1];
      return emit(s, 'message.ack', {
        id: messageId,
        from: me.id,
        to: chat ?? null,
        participant: null,
        fromMe: true,
        ack,
        ackName: ACK_NAMES[ack],
      });
    },
    deliverRaw(name, body, headers) {
      const s = sessions.get(name);
      if (!s) throw new Error(`fake WAHA: no session "${name}"`);
      const hooks = s.config?.webhooks ?? [];
      return enqueue(s, () => Promise.all(hooks.map((h) => post(h, body, headers))));
    },
    async idle() {
      // A delivery may schedule more (STARTING, then SCAN_QR_CODE): wait until nothing is left.
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      await api.idle();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
  return api;
}
