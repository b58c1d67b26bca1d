import { createHmac, timingSafeEqual } from 'node:crypto';
import { callbackId, callbackUser, inboundOf, quoteTokens, readCallback } from '@/lib/viber/callbacks';
import { answerSignedWebhook, type SignedWebhook, storeDelivery, webhookJson } from '../signed-webhook';
import { webhookChannels } from '../webhook-channels';
import { viberCredentials } from './channel-service';
import { viberInbound } from './updates';
import { openWelcome } from './welcome';

/**
 * `/api/channels/viber/<channel>`: the Viber bot's webhook. Every POST is checked against
 * `X-Viber-Content-Signature` (the hex HMAC-SHA256 of the raw body with the bot's token) before
 * anything is stored: no bot connected here is a 404, a missing or wrong signature a 401 (the
 * channel read again first). The `webhook` event (Viber checking the address as it is set) is
 * answered 200 with nothing stored; any other callback is stored once by its id (Viber resends
 * one it got no 200 for) and answered 200, then run in this process (./updates.ts), except
 * that a `conversation_started` from someone not subscribed waits a few seconds for the bot's
 * first answer, which is the body of the answer: the welcome message (./welcome.ts).
 */

export const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** True when `signature` is the body's HMAC-SHA256 with the token, in hex. */
export function viberSigned(signature: string | null, body: Uint8Array, token: string): true | string {
  if (!signature) return 'X-Viber-Content-Signature is missing';
  const expected = createHmac('sha256', token).update(body).digest();
  const given = /^[0-9a-f]{64}$/i.test(signature.trim()) ? Buffer.from(signature.trim(), 'hex') : null;
  if (!given || !timingSafeEqual(given, expected))
    return 'X-Viber-Content-Signature does not match the body signed with this bot’s token';
  return true;
}

const channels = webhookChannels('viber', (row) => ({ ...row, ...viberCredentials(row) }));
type ViberWebhookChannel = NonNullable<ReturnType<typeof channels.cached>>;

const hook: SignedWebhook<ViberWebhookChannel> = {
  channels,
  maxBytes: MAX_WEBHOOK_BYTES,
  notConnected: 'no Viber bot is connected at this address',
  signed: (req, body, channel) =>
    viberSigned(req.headers.get('x-viber-content-signature'), body, channel.token),
  async receive(deps, channel, body) {
    // Tokens quoted before anything parses the body: 64-bit ids, past a JavaScript number.
    const text = quoteTokens(new TextDecoder().decode(body));
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = null;
    }
    const read = raw === null ? null : readCallback(raw);
    if (read?.ok && read.callback.event === 'webhook') return webhookJson(200, { status: 0 });
    const welcome =
      read?.ok && read.callback.event === 'conversation_started' && !read.callback.subscribed
        ? openWelcome(channel.id, read.callback.user.id)
        : null;
    const stored = await storeDelivery(deps, channel, new TextEncoder().encode(text), {
      service: 'the Viber Bot API',
      read: (value) => {
        const callback = readCallback(value);
        return callback.ok ? { ok: true as const, callback: callback.callback } : callback;
      },
      inbound: viberInbound,
      accepted: ({ callback }) => {
        const externalId = callbackId(callback);
        if (!externalId) return { updates: [] };
        return {
          updates: [
            {
              externalId,
              order: callback.timestamp,
              chat: callbackUser(callback),
              payload: callback,
              parsed: inboundOf(callback),
            },
          ],
        };
      },
    });
    if (stored === 'stale' || !welcome) return stored;
    const message = await welcome.wait();
    return webhookJson(200, message ?? {});
  },
};

export const viberWebhook = (req: Request, channelParam: string) =>
  answerSignedWebhook(hook, req, channelParam);
