import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What Meta's webhooks (the WhatsApp Cloud API; the Instagram messaging API speaks the same)
 * ask of a receiver: the subscription's GET handshake, and every POST signed with the app
 * secret in `X-Hub-Signature-256`, checked over the raw body before anything is stored.
 * Pure: the channels' services import it (the verify token's hash); the webhooks' skeleton,
 * which stores, is server/channels/signed-webhook.ts.
 */

export const SIGNATURE_HEADER = 'x-hub-signature-256';

/** Whether `header` is `sha256=<hex HMAC-SHA256 of the raw body with the app secret>`. */
export function validHubSignature(rawBody: Uint8Array, header: string | null, appSecret: string): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')?.[1];
  if (!given || !appSecret) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

/** The POST's signature check of a Meta channel's webhook (server/channels/signed-webhook.ts): true, or what the 401 says. */
export const hubSigned = (req: Request, body: Uint8Array, appSecret: string): true | string =>
  validHubSignature(body, req.headers.get(SIGNATURE_HEADER), appSecret) ||
  `the ${SIGNATURE_HEADER} header is missing or is not this app's signature of the body`;

/** The verify token is kept only as this hash: the handshake's token is compared by it. */
export const verifyTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The subscription handshake (`GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`):
 * the challenge echoed when the token is the one the channel gave, else a refusal.
 */
export function answerHandshake(
  params: URLSearchParams,
  tokenHash: string,
): { status: number; body: string; contentType: string } {
  const text = (status: number, body: string) => ({ status, body, contentType: 'text/plain; charset=utf-8' });
  if (params.get('hub.mode') !== 'subscribe') return text(400, 'hub.mode must be subscribe');
  const token = params.get('hub.verify_token') ?? '';
  const given = Buffer.from(verifyTokenHash(token), 'hex');
  const stored = Buffer.from(tokenHash, 'hex');
  if (!token || given.length !== stored.length || !timingSafeEqual(given, stored))
    return text(403, 'hub.verify_token is not the verify token shown when the channel was connected');
  return text(200, params.get('hub.challenge') ?? '');
}

/** The handshake as the webhook route's answer. */
export function handshakeResponse(req: Request, tokenHash: string): Response {
  const answer = answerHandshake(new URL(req.url).searchParams, tokenHash);
  return new Response(answer.body, {
    status: answer.status,
    headers: { 'content-type': answer.contentType },
  });
}
