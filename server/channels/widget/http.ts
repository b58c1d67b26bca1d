import { z } from 'zod';
import { clientAddress } from '@/lib/client-address';
import { ANY_ORIGIN } from '@/lib/cors';
import type { WidgetPublicConfig } from '@/lib/widget/settings';
import { cappedText } from '@/server/channels/capped-body';
import { getEnv } from '@/server/config/env';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { DomainError } from '@/server/errors';
import { logFor } from '@/server/log';
import type { WidgetChannel } from './channel-service';
import { takeDialog, takeMessage, takeUpload } from './limits';
import { dialogStream } from './stream';
import { receiveUpload, UPLOAD_HEADERS } from './uploads';
import {
  channelAndVisitor,
  historyPage,
  identifySchema,
  identifyVisitor,
  messagesAfter,
  openDialog,
  sendFromVisitor,
  type Visitor,
  visitorMessageSchema,
} from './visitors';

const log = logFor('widget');

/**
 * The widget's endpoints, /api/channels/widget/<key>/<action>, for widget.js on the sites the
 * channel allows. Checked in order — the channel exists (404), the page's origin is allowed
 * (403, with no CORS headers: the page learns nothing), the visitor's token (401), the rate
 * limits (429), the body's size (413) and shape (400) — before anything is stored.
 *
 * - GET  config: the title, greeting, colours, position and theme
 * - POST dialog: a new dialog, `{recipient, token}`
 * - GET  messages[?after=<id> | ?before=<id>]: the visitor's newest messages `{messages, more}`,
 *   or those after a message (a resume), or the page before one (scrolling up) `{messages, more}`
 * - POST messages `{text, id?}`: the visitor's message (typed, or a pressed button's), through the engine
 * - POST files: the visitor's file as the body, its name (and caption, id) in headers (uploads.ts);
 *   counted as a message, then its size (413), headers (400) and type (415) checked
 * - POST identify `{name?, tag?, variables?}`
 * - GET  events: the live stream (server-sent events), resumed after `Last-Event-ID`
 */

/** A message or a button press is small; identify carries variables. */
const MAX_MESSAGE_BODY = 16 * 1024;
const MAX_IDENTIFY_BODY = 64 * 1024;

const REQUEST_HEADERS = ['content-type', 'authorization', 'last-event-id', ...UPLOAD_HEADERS].join(', ');

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

function corsFor(origin: string, settings: WidgetChannel['settings']): Record<string, string> | null {
  const allowed = settings.allowedOrigins;
  if (!allowed.includes(origin) && !allowed.includes(ANY_ORIGIN)) return null;
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Retry-After',
    Vary: 'Origin',
  };
}

const failure = (
  status: number,
  error: string,
  message: string,
  headers?: Record<string, string>,
): Reply => ({
  status,
  body: { error, message },
  headers,
});

function toResponse(reply: Reply, cors: Record<string, string> = {}): Response {
  const headers = {
    ...cors,
    ...reply.headers,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (reply.body === undefined) return new Response(null, { status: reply.status, headers });
  return Response.json(reply.body, { status: reply.status, headers });
}

const tooMany = (retryAfter: number, what: string) =>
  failure(429, 'rate_limited', `Too many ${what}; try again in ${retryAfter} s.`, {
    'Retry-After': String(retryAfter),
  });

function bearer(req: Request): string {
  const header = req.headers.get('authorization') ?? '';
  return header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
}

/** `raw` checked against `schema`; a 400 Reply naming the first problem's field. */
function checked<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> | Reply {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return failure(
    400,
    'invalid',
    issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  );
}

/** The JSON body checked against `schema`; a Reply when it is too large or of the wrong shape. */
async function body<S extends z.ZodType>(req: Request, cap: number, schema: S): Promise<z.output<S> | Reply> {
  const text = await cappedText(req, cap);
  if (text === null) return failure(413, 'too_large', `The request body is over ${cap / 1024} KiB.`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return failure(400, 'invalid', 'The request body is not JSON.');
  }
  return checked(schema, raw);
}

/** A message id (int8) in a query. */
const messageIdParam = z
  .string()
  .regex(/^\d{1,19}$/, { error: 'must be a message id' })
  .transform(BigInt)
  .refine((id) => id <= 9223372036854775807n, { error: 'must be a message id' });

/** `after` (a resume) or `before` (an earlier page), or neither (the newest page). */
const messagesQuery = z
  .object({ after: messageIdParam.optional(), before: messageIdParam.optional() })
  .refine((q) => q.after === undefined || q.before === undefined, {
    error: 'give after or before, not both',
  });

const isReply = (value: unknown): value is Reply =>
  typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';

function publicConfig(channel: WidgetChannel): WidgetPublicConfig {
  const { allowedOrigins: _, ...config } = channel.settings;
  return config;
}

interface Call {
  req: Request;
  deps: EngineDeps;
  channel: WidgetChannel;
  /** The visitor the request's token opens on this channel. */
  visitor: Visitor | null;
  address: string;
}

async function withVisitor(call: Call, run: (visitor: Visitor) => Promise<Reply | Response>) {
  const { visitor } = call;
  if (!visitor) return failure(401, 'unknown_visitor', 'This dialog is unknown: open a new one.');
  return run(visitor);
}

async function answer(call: Call, action: string): Promise<Reply | Response> {
  const { req, deps, channel, address } = call;
  const route = `${req.method} ${action}`;
  switch (route) {
    case 'GET config':
      return { status: 200, body: publicConfig(channel) };
    case 'POST dialog': {
      const decision = await takeDialog(deps.db, address);
      if (!decision.allowed) return tooMany(decision.retryAfter, 'new dialogs from this address');
      return { status: 201, body: await openDialog(deps.db, channel) };
    }
    case 'GET messages':
      return withVisitor(call, async (visitor) => {
        const query = checked(messagesQuery, Object.fromEntries(new URL(req.url).searchParams));
        if (isReply(query)) return query;
        if (query.after !== undefined)
          return { status: 200, body: { messages: await messagesAfter(deps.db, visitor, query.after) } };
        return { status: 200, body: await historyPage(deps.db, visitor, query.before) };
      });
    case 'POST messages':
      return withVisitor(call, async (visitor) => {
        const decision = await takeMessage(deps.db, visitor.clientId, address);
        if (!decision.allowed) return tooMany(decision.retryAfter, 'messages');
        const input = await body(req, MAX_MESSAGE_BODY, visitorMessageSchema);
        if (isReply(input)) return input;
        await sendFromVisitor(deps, visitor, input.text, input.id);
        return { status: 200, body: { ok: true } };
      });
    case 'POST files':
      return withVisitor(call, async (visitor) => {
        const decision = await takeUpload(deps.db, visitor.clientId, address);
        if (!decision.allowed) return tooMany(decision.retryAfter, 'messages or files');
        const outcome = await receiveUpload(deps, visitor, req);
        if (!outcome.ok)
          return failure(
            outcome.status,
            outcome.error,
            outcome.message,
            outcome.retryAfter ? { 'Retry-After': String(outcome.retryAfter) } : undefined,
          );
        return { status: 200, body: { ok: true, file: outcome.file } };
      });
    case 'POST identify':
      return withVisitor(call, async (visitor) => {
        const input = await body(req, MAX_IDENTIFY_BODY, identifySchema);
        if (isReply(input)) return input;
        await identifyVisitor(deps.db, visitor, input);
        return { status: 200, body: { recipient: visitor.recipient } };
      });
    case 'GET events':
      return withVisitor(call, async (visitor) => dialogStream(req, deps, visitor));
    default:
      return failure(404, 'not_found', `No ${route} here.`);
  }
}

export async function handleWidgetRequest(req: Request, key: string, action: string): Promise<Response> {
  const deps = await getEngineDeps();
  const found = await channelAndVisitor(deps.db, key, bearer(req));
  if (!found) return toResponse(failure(404, 'not_found', 'No chat widget has this key.'));
  const origin = req.headers.get('origin');
  const { channel, visitor } = found;
  const cors = origin ? corsFor(origin, channel.settings) : null;
  if (!cors)
    return toResponse(
      failure(
        403,
        'origin_refused',
        'This site is not among the chat widget’s allowed origins (the Channels tab).',
      ),
    );
  if (req.method === 'OPTIONS')
    return toResponse(
      {
        status: 204,
        headers: {
          'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
          'Access-Control-Allow-Headers': REQUEST_HEADERS,
          'Access-Control-Max-Age': '600',
        },
      },
      cors,
    );
  const address = clientAddress(
    req.headers.get('x-forwarded-for')?.split(',') ?? [],
    getEnv().BLOCKBOT_TRUSTED_PROXIES,
  );
  try {
    const reply = await answer({ req, deps, channel, visitor, address }, action);
    if (reply instanceof Response) {
      for (const [name, value] of Object.entries(cors)) reply.headers.set(name, value);
      return reply;
    }
    return toResponse(reply, cors);
  } catch (error) {
    if (error instanceof DomainError)
      return toResponse(failure(error.code === 'not_found' ? 404 : 400, error.code, error.message), cors);
    log.error(`${req.method} ${action} failed: ${(error as Error).message}`);
    return toResponse(failure(500, 'failed', 'The message could not be handled; try again.'), cors);
  }
}
