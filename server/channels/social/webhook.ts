import { instagramUpdates } from '@/lib/social/instagram-webhook';
import { cappedBytes } from '@/server/channels/capped-body';
import { webhookChannel } from '@/server/db/channel-update-sql';
import { plainSql } from '@/server/db/raw-sql';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { recordNotProcessed, storeUpdates } from '../inbound/pipeline';
import { handshakeResponse, readDelivery, SIGNATURE_HEADER, validHubSignature } from '../meta/webhook';
import { socialCredentials } from './channel-service';
import { socialInbound } from './updates';

/**
 * `/api/channels/social/<channel>`: the Instagram messaging webhook of one connected account.
 * GET is the subscription handshake (the verify token shown at connection). A POST is checked
 * against `X-Hub-Signature-256` with the app secret over the raw body before anything is
 * stored: no account connected here is a 404, a missing or wrong signature a 401. A signed
 * delivery is answered 200 once its updates are stored (Meta resends an unanswered one, and a
 * resend is dropped by the message's id); one that is not Instagram's messaging webhook is
 * answered 200 too, with why recorded on the channel. This process then runs the updates
 * (./updates.ts).
 */

export const MAX_WEBHOOK_BYTES = 3 * 1024 * 1024;

const json = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const notConnected = () => json(404, { error: 'no Instagram account is connected at this address' });

async function readChannel(deps: EngineDeps, param: string) {
  const id = /^\d{1,9}$/.test(param) ? Number(param) : 0;
  if (!id) return undefined;
  const [row] = await plainSql(deps.db).run(webhookChannel, { id, kind: 'social' });
  return row && { ...row, ...socialCredentials(row) };
}

export async function socialHandshake(req: Request, channelParam: string): Promise<Response> {
  const channel = await readChannel(await getEngineDeps(), channelParam);
  return channel ? handshakeResponse(req, channel.inboundSecret) : notConnected();
}

export async function socialWebhook(req: Request, channelParam: string): Promise<Response> {
  const deps = await getEngineDeps();
  const channel = await readChannel(deps, channelParam);
  if (!channel) return notConnected();
  const body = await cappedBytes(req, MAX_WEBHOOK_BYTES);
  if (!body) return json(413, { error: `the body is over ${MAX_WEBHOOK_BYTES} bytes` });
  if (!validHubSignature(body, req.headers.get(SIGNATURE_HEADER), channel.appSecret))
    return json(401, {
      error: `the ${SIGNATURE_HEADER} header is missing or is not this app's signature of the body`,
    });
  const read = readDelivery(body, instagramUpdates, 'Instagram');
  if (!read.ok) {
    await recordNotProcessed(deps.db, channel.id, read.problem);
    return json(200, { ok: true });
  }
  const others = read.accounts.filter((a) => a !== channel.accountId);
  if (others.length)
    await recordNotProcessed(
      deps.db,
      channel.id,
      `events of the Instagram account ${others.join(', ')} came to @${channel.groupId}'s webhook: the app sends every account's events to one address, so connect each account with its own app, or they are not answered`,
    );
  const updates = read.updates.filter((u) => u.payload.account === channel.accountId);
  const stored = await storeUpdates(deps, socialInbound, channel.id, updates, {
    secret: channel.inboundSecret,
    groupId: channel.groupId,
  });
  return stored ? json(200, { ok: true }) : notConnected();
}
