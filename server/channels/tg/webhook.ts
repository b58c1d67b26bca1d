import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseUpdate } from '@/lib/tg/inbound';
import { cappedNodeText, cappedText } from '@/server/channels/capped-body';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { logFor } from '@/server/log';
import { sendNodeReply } from '@/server/node-http/reply';
import { recordNotProcessed } from '../inbound/pipeline';
import { channelIdOf, webhookChannels } from '../webhook-channels';
import { storeUpdates } from './updates';

const log = logFor('tg');

/**
 * POST /api/channels/tg/<channel>: an update from the messenger. Only a request that is not the
 * messenger's is refused, before anything is stored: no bot connected at this address (404), a
 * missing or wrong secret header (403). Everything else is answered 200, since the messenger
 * resends an update answered otherwise and then drops it: one it cannot be processed (over 1 MB,
 * not JSON, not a well-formed update) is not processed, and why is recorded on the channel (its
 * last error) and, when it has an update_id, on its stored row, marked processed. The answer
 * comes as soon as the update is stored; this process then runs it through the engine without
 * making the answer wait (server/channels/tg/updates.ts).
 */

export const MAX_UPDATE_BYTES = 1024 * 1024;
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** What the webhook answers, for a Fetch Response (the route) or node:http (`npm start`). */
export interface TgWebhookReply {
  status: number;
  body: string;
}

/** A webhook request as both servers hand it over. */
export interface TgWebhookRequest {
  /** The channel's id, as the path gives it. */
  channelParam: string;
  /** The secret header, when it was sent. */
  secret: string | null;
  /** The body as text, or null when it is over MAX_UPDATE_BYTES. */
  text(): Promise<string | null>;
}

const OK: TgWebhookReply = { status: 200, body: '{"ok":true}' };
const answer = (status: number, description?: string): TgWebhookReply =>
  description ? { status, body: JSON.stringify({ ok: false, description }) } : OK;

function sameSecret(given: string | null, expected: string): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the webhook checks a request against, per channel id. */
interface WebhookChannel {
  id: number;
  /** Never changes: an update's client is claimed in its project as the update is stored. */
  projectId: number;
  groupId: string;
  inboundSecret: string;
}

/**
 * The channels' secrets and usernames, read once (server/channels/webhook-channels.ts): every
 * update's insert checks the channel still has them (storeUpdates).
 */
const channels = webhookChannels<WebhookChannel>('tg', (row) => row);

/** The channel when the request may go on, else the refusal: no such channel (404), a wrong secret (403). */
function admitted(
  channel: WebhookChannel | undefined,
  given: string | null,
): WebhookChannel | TgWebhookReply {
  if (!channel) return answer(404, 'no tg bot is connected at this address');
  if (!sameSecret(given, channel.inboundSecret))
    return answer(403, `the ${SECRET_HEADER} header is missing or wrong`);
  return channel;
}

/** An update that cannot even be stored: 200 all the same (a 4xx is resent), and why on the channel. */
async function notProcessed(deps: EngineDeps, channelId: number, reason: string): Promise<TgWebhookReply> {
  await recordNotProcessed(deps.db, channelId, reason);
  return answer(200);
}

/** The route handler's form (`next start`, `next dev`, and the first update under `npm start`). */
export async function handleTgWebhook(req: Request, channelParam: string): Promise<Response> {
  // `npm start` serves later updates straight from node:http (scripts/start.mjs); the channels'
  // route answers the first one, and every update under `next dev` and `next start`.
  exposeTgWebhookToProductionServer();
  const reply = await answerTgWebhook({
    channelParam,
    secret: req.headers.get(SECRET_HEADER),
    text: () => cappedText(req, MAX_UPDATE_BYTES),
  });
  return new Response(reply.body, { status: reply.status, headers: JSON_TYPE });
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** `/api/channels/tg/<channel id>`, as the production server serves it without Next.js's router. */
const WEBHOOK_PATH = /^\/api\/channels\/tg\/(\d{1,9})$/;

/**
 * Serves `req` when it is a POST to a tg webhook; false leaves it to Next.js. Under `npm start`
 * (scripts/start.mjs), once the route's module has loaded: no Fetch Request or Response is
 * built, and Next.js's router is skipped, as for the public API.
 */
export function serveTgWebhook(req: IncomingMessage, res: ServerResponse): boolean {
  const match = req.method === 'POST' ? WEBHOOK_PATH.exec(req.url ?? '') : null;
  if (!match) return false;
  const secret = req.headers[SECRET_HEADER];
  answerTgWebhook({
    channelParam: match[1],
    secret: typeof secret === 'string' ? secret : null,
    text: () =>
      cappedNodeText(
        req.iterator({ destroyOnReturn: false }),
        req.headers['content-length'],
        MAX_UPDATE_BYTES,
      ),
  })
    .then((reply) => sendNodeReply(req, res, { headers: JSON_TYPE, ...reply }))
    .catch((error) => {
      log.error({ err: error }, 'could not answer a webhook');
      res.destroy();
    });
  return true;
}

const ENTRY = Symbol.for('blockbot.serveTgWebhook');

/** Hands serveTgWebhook to the production server; called by the route's form (see the public API's). */
export function exposeTgWebhookToProductionServer(): void {
  (globalThis as Record<symbol, unknown>)[ENTRY] = serveTgWebhook;
}

/** Checks and stores one update (see the module's comment); both servers' forms call it. */
export async function answerTgWebhook(request: TgWebhookRequest): Promise<TgWebhookReply> {
  const { channelParam } = request;
  const channelId = channelIdOf(channelParam);
  const deps = await getEngineDeps();
  const given = request.secret;
  let channel = channels.cached(channelId);
  // A wrong secret may be a stale copy's: the channel is read again before refusing.
  let fresh = !channel || !sameSecret(given, channel.inboundSecret);
  if (fresh) channel = await channels.read(deps, channelId);
  let admit = admitted(channel, given);
  if (!('id' in admit)) return admit;
  const text = await request.text();
  if (text === null) return notProcessed(deps, admit.id, `it is over ${MAX_UPDATE_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return notProcessed(deps, admit.id, 'its body is not JSON');
  }
  for (;;) {
    const inbound = parseUpdate(raw, { botUsername: admit.groupId });
    // An invalid update with its update_id is stored like any (a resend is dropped) and its
    // processing records the reason (updates.ts).
    const { updateId } = inbound;
    if (updateId === undefined)
      return notProcessed(
        deps,
        admit.id,
        inbound.kind === 'invalid' ? inbound.reason : 'it has no update_id',
      );
    const stored = await storeUpdates(deps, admit.id, [{ updateId, payload: raw as object, inbound }], {
      secret: admit.inboundSecret,
      groupId: admit.groupId,
      projectId: admit.projectId,
    });
    if (stored) return answer(200);
    // The copy was stale (or the channel changed since it was read): checked again as it is now.
    if (fresh) return answer(404, 'no tg bot is connected at this address');
    fresh = true;
    admit = admitted(await channels.read(deps, channelId), given);
    if (!('id' in admit)) return admit;
  }
}
