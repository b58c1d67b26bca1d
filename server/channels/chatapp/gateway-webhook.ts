import { createHmac, timingSafeEqual } from 'node:crypto';
import { gatewayDelivery } from '@/lib/chatapp/gateway-webhook';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { releaseHeldSends } from '@/server/engine/held-sends';
import { recordNotProcessed, storeUpdates } from '../inbound/pipeline';
import { CHATAPP_CLIENT_TYPE } from './channel-service';
import { applySessionState } from './gateway-service';
import { chatappInbound } from './updates';

/**
 * A gateway session's webhook POST (WAHA): checked against `X-Webhook-Hmac` (HMAC-SHA512 of
 * the raw body with the key made at connection) before anything is read or stored. A message
 * or a status goes on the inbound pipeline (a resend is dropped by the message's id); a
 * session's new state is applied to the channel at once (pairing, a failure), and a session
 * working again sends the messages held while it was not.
 */

export const GATEWAY_SIGNATURE_HEADER = 'x-webhook-hmac';

/** Whether `header` is the hex HMAC-SHA512 of the raw body with the session's webhook key. */
export function validGatewaySignature(rawBody: Uint8Array, header: string | null, key: string): boolean {
  const given = header?.trim() ?? '';
  if (!/^[0-9a-f]{128}$/i.test(given) || !key) return false;
  const expected = createHmac('sha512', key).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

export interface GatewayWebhookChannel {
  provider: 'gateway';
  id: number;
  groupId: string;
  inboundSecret: string;
  session: string;
  hmacKey: string;
}

const json = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Answers a signed delivery 200 once what it carries is stored or applied (the gateway tries an
 * unanswered one again); false from `store` means the channel changed meanwhile (read it again).
 */
export async function gatewayWebhook(
  deps: EngineDeps,
  channel: GatewayWebhookChannel,
  body: Uint8Array,
  /** The channel's row changed (its number, once paired): a cached copy must be read again. */
  changed: () => void,
): Promise<Response | 'stale'> {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(body));
  } catch {
    await recordNotProcessed(deps.db, channel.id, 'a gateway webhook whose body is not JSON');
    return json(200, { ok: true });
  }
  const delivery = gatewayDelivery(raw);
  if (delivery.kind === 'invalid') {
    await recordNotProcessed(deps.db, channel.id, `a gateway webhook that is not WAHA's: ${delivery.reason}`);
    return json(200, { ok: true });
  }
  if (delivery.session !== channel.session) {
    await recordNotProcessed(
      deps.db,
      channel.id,
      `an event of the session "${delivery.session}" came to the webhook of the session "${channel.session}": give each session its own connection`,
    );
    return json(200, { ok: true });
  }
  if (delivery.kind === 'ignore') return json(200, { ok: true, ignored: delivery.reason });
  if (delivery.kind === 'session') {
    const row = await deps.db.channel.findUnique({ where: { id: channel.id } });
    if (!row) return 'stale';
    const applied = await applySessionState(deps.db, row, delivery.state, delivery.me);
    changed();
    // Working again: the messages held while it was not go now, in order.
    if (delivery.state === 'WORKING' && applied.groupId)
      await releaseHeldSends(deps.db, {
        projectId: applied.projectId,
        clientType: CHATAPP_CLIENT_TYPE,
        groupId: applied.groupId,
      });
    return json(200, { ok: true });
  }
  const stored = await storeUpdates(
    deps,
    chatappInbound,
    channel.id,
    [
      {
        externalId: delivery.externalId,
        order: delivery.order,
        chat: delivery.chat,
        payload: delivery.payload,
        parsed: chatappInbound.parse(delivery.payload, undefined as never),
      },
    ],
    { secret: channel.inboundSecret, groupId: channel.groupId },
  );
  return stored ? json(200, { ok: true }) : 'stale';
}
