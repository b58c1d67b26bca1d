import { type CloudUpdate, cloudUpdates } from '@/lib/chatapp/cloud-webhook';
import { cappedBytes } from '@/server/channels/capped-body';
import { webhookChannel } from '@/server/db/channel-update-sql';
import { plainSql } from '@/server/db/raw-sql';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { recordNotProcessed, storeUpdates } from '../inbound/pipeline';
import { handshakeResponse, readDelivery, SIGNATURE_HEADER, validHubSignature } from '../meta/webhook';
import { cloudCredentials } from './channel-service';
import { gatewayCredentials, isGatewayChannel } from './gateway-service';
import {
  GATEWAY_SIGNATURE_HEADER,
  type GatewayWebhookChannel,
  gatewayWebhook,
  validGatewaySignature,
} from './gateway-webhook';
import { chatappInbound } from './updates';

/**
 * `/api/channels/chatapp/<channel>`: the Cloud API's webhook of one connected number.
 * GET is the subscription handshake (the verify token shown at connection). A POST is checked
 * against `X-Hub-Signature-256` with the app secret over the raw body before anything is
 * stored: no number connected here is a 404, a missing or wrong signature a 401 (Meta signs
 * every delivery; anything else is not Meta's). A signed delivery is answered 200 once its
 * updates are stored (Meta resends an unanswered one for up to 7 days, and a resend is dropped
 * by the message's id); one that is not this API's webhook is answered 200 too, with why
 * recorded on the channel. This process then runs the updates (./updates.ts).
 * A number connected through a session gateway has its webhook here too (./gateway-webhook.ts).
 */

export const MAX_WEBHOOK_BYTES = 3 * 1024 * 1024;

interface CloudWebhookChannel {
  provider: 'cloud';
  id: number;
  groupId: string;
  inboundSecret: string;
  phoneNumberId: string;
  appSecret: string;
}

type WebhookChannel = CloudWebhookChannel | GatewayWebhookChannel;

const MAX_CACHED = 1024;
/**
 * The channels' handshake hash, number and app secret, opened once: the insert checks the
 * channel still has them (storeUpdates), so a copy made stale elsewhere is read again.
 */
const cached = new Map<number, WebhookChannel>();

async function readChannel(deps: EngineDeps, id: number): Promise<WebhookChannel | undefined> {
  cached.delete(id);
  const [row] = await plainSql(deps.db).run(webhookChannel, { id, kind: 'chatapp' });
  if (!row) return undefined;
  const common = { id: row.id, groupId: row.groupId, inboundSecret: row.inboundSecret };
  let channel: WebhookChannel;
  if (isGatewayChannel(row)) {
    const { session, hmacKey } = gatewayCredentials(row);
    channel = { ...common, provider: 'gateway', session, hmacKey };
  } else {
    const { phoneNumberId, appSecret } = cloudCredentials(row);
    channel = { ...common, provider: 'cloud', phoneNumberId, appSecret };
  }
  cached.set(id, channel);
  if (cached.size > MAX_CACHED) cached.delete(cached.keys().next().value as number);
  return channel;
}

const json = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const notConnected = () => json(404, { error: 'no chat-app number is connected at this address' });

const channelIdOf = (param: string) => (/^\d{1,9}$/.test(param) ? Number(param) : 0);

/** The subscription handshake Meta makes when the callback URL is saved in the app. */
export async function chatappHandshake(req: Request, channelParam: string): Promise<Response> {
  const id = channelIdOf(channelParam);
  const channel = id ? await readChannel(await getEngineDeps(), id) : undefined;
  if (channel?.provider !== 'cloud') return notConnected();
  return handshakeResponse(req, channel.inboundSecret);
}

export async function chatappWebhook(req: Request, channelParam: string): Promise<Response> {
  const id = channelIdOf(channelParam);
  const deps = await getEngineDeps();
  let channel = cached.get(id) ?? (id ? await readChannel(deps, id) : undefined);
  if (!channel) return notConnected();
  const body = await cappedBytes(req, MAX_WEBHOOK_BYTES);
  if (!body) return json(413, { error: `the body is over ${MAX_WEBHOOK_BYTES} bytes` });
  if (channel.provider === 'gateway') return fromGateway(deps, id, channel, req, body);
  const signature = req.headers.get(SIGNATURE_HEADER);
  // A wrong signature may be a stale copy's (the number reconnected with another app): read again first.
  if (!validHubSignature(body, signature, channel.appSecret)) {
    channel = await readChannel(deps, id);
    if (channel?.provider !== 'cloud') return notConnected();
    if (!validHubSignature(body, signature, channel.appSecret))
      return json(401, {
        error: `the ${SIGNATURE_HEADER} header is missing or is not this app's signature of the body`,
      });
  }
  const read = readDelivery(body, cloudUpdates, 'the Cloud API');
  if (!read.ok) {
    await recordNotProcessed(deps.db, channel.id, read.problem);
    return json(200, { ok: true });
  }
  const own = channel.phoneNumberId;
  const updates = read.updates.filter((u) => numberOf(u) === own || numberOf(u) === undefined);
  const others = new Set(read.updates.map(numberOf).filter((n) => n !== undefined && n !== own));
  if (others.size)
    await recordNotProcessed(
      deps.db,
      channel.id,
      `events of the phone number ID ${[...others].join(', ')} came to this number's webhook: the app sends every number's events to one address, so connect each number with its own app, or they are not answered`,
    );
  for (let fresh = false; ; fresh = true) {
    const stored = await storeUpdates(
      deps,
      chatappInbound,
      channel.id,
      updates.map((u) => ({ ...u, parsed: { via: 'cloud' as const, item: u.parsed } })),
      {
        secret: channel.inboundSecret,
        groupId: channel.groupId,
      },
    );
    if (stored) return json(200, { ok: true });
    if (fresh) return notConnected();
    channel = await readChannel(deps, id);
    if (channel?.provider !== 'cloud') return notConnected();
  }
}

async function fromGateway(
  deps: EngineDeps,
  id: number,
  cachedChannel: GatewayWebhookChannel,
  req: Request,
  body: Uint8Array,
): Promise<Response> {
  const signature = req.headers.get(GATEWAY_SIGNATURE_HEADER);
  let channel: WebhookChannel | undefined = cachedChannel;
  if (!validGatewaySignature(body, signature, cachedChannel.hmacKey)) {
    channel = await readChannel(deps, id);
    if (channel?.provider !== 'gateway') return notConnected();
    if (!validGatewaySignature(body, signature, channel.hmacKey))
      return json(401, {
        error: `the X-Webhook-Hmac header is missing or is not the HMAC-SHA512 of the body with this session's webhook key`,
      });
  }
  for (let fresh = false; ; fresh = true) {
    const answer = await gatewayWebhook(deps, channel, body, () => cached.delete(id));
    if (answer !== 'stale') return answer;
    if (fresh) return notConnected();
    channel = await readChannel(deps, id);
    if (channel?.provider !== 'gateway') return notConnected();
  }
}

const numberOf = (u: CloudUpdate): string | undefined =>
  'metadata' in u.payload ? u.payload.metadata.phone_number_id : undefined;
