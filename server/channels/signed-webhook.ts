import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { cappedBytes } from './capped-body';
import {
  type AcceptedUpdate,
  type InboundProcessor,
  recordNotProcessed,
  storeUpdates,
} from './inbound/pipeline';
import { channelIdOf, type WebhookChannels } from './webhook-channels';

/**
 * The skeleton of a webhook whose POSTs are signed over the raw body (Meta's, a session
 * gateway's): no channel receiving at the address is a 404, a body over `maxBytes` a 413, a
 * missing or wrong signature a 401 (the channel is read again first: the cached copy may be
 * stale), all before anything is stored. A signed delivery is then the kind's `receive`, which
 * answers 'stale' when the channel changed since it was read: it is read and received once
 * more, and a channel still changed is not connected here.
 */

export interface SignedWebhook<C> {
  channels: WebhookChannels<C>;
  maxBytes: number;
  /** What the 404 says: "no … is connected at this address". */
  notConnected: string;
  /** True when the body carries the channel's signature, else what the 401 says. */
  signed(req: Request, body: Uint8Array, channel: C): true | string;
  receive(deps: EngineDeps, channel: C, body: Uint8Array): Promise<Response | 'stale'>;
}

export const webhookJson = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const notConnected = (hook: { notConnected: string }) => webhookJson(404, { error: hook.notConnected });

export async function answerSignedWebhook<C>(
  hook: SignedWebhook<C>,
  req: Request,
  channelParam: string,
): Promise<Response> {
  const id = channelIdOf(channelParam);
  const deps = await getEngineDeps();
  let channel = await hook.channels.current(deps, id);
  if (!channel) return notConnected(hook);
  const body = await cappedBytes(req, hook.maxBytes);
  if (!body) return webhookJson(413, { error: `the body is over ${hook.maxBytes} bytes` });
  // A wrong signature may be a stale copy's (the channel reconnected with another secret): read again first.
  if (hook.signed(req, body, channel) !== true) {
    channel = await hook.channels.read(deps, id);
    if (!channel) return notConnected(hook);
    const signed = hook.signed(req, body, channel);
    if (signed !== true) return webhookJson(401, { error: signed });
  }
  for (let fresh = false; ; fresh = true) {
    const answer = await hook.receive(deps, channel, body);
    if (answer !== 'stale') return answer;
    if (fresh) return notConnected(hook);
    channel = await hook.channels.read(deps, id);
    if (!channel) return notConnected(hook);
  }
}

/** A GET to the webhook (a subscription handshake), answered by `answer` for the channel as it is now. */
export async function answerWebhookGet<C>(
  hook: Pick<SignedWebhook<C>, 'channels' | 'notConnected'>,
  channelParam: string,
  answer: (channel: C) => Response | undefined,
): Promise<Response> {
  const channel = await hook.channels.read(await getEngineDeps(), channelIdOf(channelParam));
  return (channel && answer(channel)) ?? notConnected(hook);
}

/** How a kind reads a signed delivery's JSON into its updates. */
export interface DeliveryReading<D extends { ok: true }, T> {
  /** The service, for what is recorded when a delivery is not its webhook: "the Cloud API". */
  service: string;
  read(raw: unknown): D | { ok: false; reason: string };
  inbound: InboundProcessor<T>;
  /** The delivery's updates for this channel, and why, when some were another's (recorded on the channel). */
  accepted(delivery: D): { updates: AcceptedUpdate<T>[]; foreign?: string };
}

/**
 * A signed delivery's updates stored (answered 200); 'stale' when the channel changed since the
 * webhook read it. A body that is not JSON, or not the service's webhook, is answered 200 all the
 * same (the service resends an unanswered one for days), with why recorded on the channel.
 */
export async function storeDelivery<D extends { ok: true }, T>(
  deps: EngineDeps,
  channel: { id: number; groupId: string; inboundSecret: string },
  body: Uint8Array,
  reading: DeliveryReading<D, T>,
): Promise<Response | 'stale'> {
  const delivery = readDelivery(body, reading);
  if (!delivery.ok) {
    await recordNotProcessed(deps.db, channel.id, delivery.problem);
    return webhookJson(200, { ok: true });
  }
  const { updates, foreign } = reading.accepted(delivery);
  if (foreign) await recordNotProcessed(deps.db, channel.id, foreign);
  const stored = await storeUpdates(deps, reading.inbound, channel.id, updates, {
    secret: channel.inboundSecret,
    groupId: channel.groupId,
  });
  return stored ? webhookJson(200, { ok: true }) : 'stale';
}

function readDelivery<D extends { ok: true }>(
  body: Uint8Array,
  reading: Pick<DeliveryReading<D, unknown>, 'read' | 'service'>,
): D | { ok: false; problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return { ok: false, problem: 'a webhook delivery whose body is not JSON' };
  }
  const result = reading.read(raw);
  return result.ok
    ? result
    : { ok: false, problem: `a webhook delivery that is not ${reading.service}'s: ${result.reason}` };
}
