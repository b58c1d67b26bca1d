import { timingSafeEqual } from 'node:crypto';
import { parseUpdate } from '@/lib/tg/inbound';
import { cappedText } from '@/server/channels/capped-body';
import { plainSql } from '@/server/db/raw-sql';
import { webhookChannel } from '@/server/db/tg-update-sql';
import { getEngineDeps } from '@/server/engine/engine';
import { storeUpdates } from './updates';

/**
 * POST /api/channels/tg/<channel>: an update from the messenger. Checked in order — the
 * channel exists (404), the secret header matches (403), the body fits (413), is JSON (400)
 * and a well-formed update (400) — and only then stored, so a refused request changes
 * nothing. The answer comes as soon as the update is stored; this process then runs it
 * through the engine without making the answer wait (server/channels/tg/updates.ts).
 */

export const MAX_UPDATE_BYTES = 1024 * 1024;
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

const answer = (status: number, description?: string) =>
  Response.json(description ? { ok: false, description } : { ok: true }, { status });

function sameSecret(given: string | null, expected: string): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function handleTgWebhook(req: Request, channelParam: string): Promise<Response> {
  const channelId = /^\d{1,9}$/.test(channelParam) ? Number(channelParam) : 0;
  const deps = await getEngineDeps();
  const channel = channelId ? (await plainSql(deps.db).run(webhookChannel, { id: channelId }))[0] : undefined;
  if (!channel) return answer(404, 'no tg bot is connected at this address');
  if (!sameSecret(req.headers.get(SECRET_HEADER), channel.inboundSecret))
    return answer(403, `the ${SECRET_HEADER} header is missing or wrong`);
  const text = await cappedText(req, MAX_UPDATE_BYTES);
  if (text === null) return answer(413, `an update must be at most ${MAX_UPDATE_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return answer(400, 'the body is not JSON');
  }
  const inbound = parseUpdate(raw, { botUsername: channel.groupId });
  if (inbound.kind === 'invalid') return answer(400, inbound.reason);
  await storeUpdates(deps, channel.id, [{ updateId: inbound.updateId, payload: raw as object, inbound }]);
  return answer(200);
}
