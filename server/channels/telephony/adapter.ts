import { heldRetryAt } from '@/lib/channels/retry';
import { deliveryOf, messageVerbs, unanswered } from '@/lib/telephony/verbs';
import type { Db } from '@/server/db/client-type';
import type { ChannelAdapter, ChannelClient, DeliveryResult, SendContext } from '../channel-adapter';
import {
  addPending,
  type CallState,
  DIALING_STALE_MS,
  lastChannelId,
  openTurn,
  PENDING_KEY,
  readCall,
  writeCall,
} from './calls';
import {
  clientTelephonyChannel,
  gatherHook,
  TELEPHONY_CLIENT_TYPE,
  telephonyCredentials,
  telephonySettings,
  telephonyUrls,
} from './channel-service';
import { telephonyEnv } from './env';
import { providerOf, type TelephonyProvider } from './provider';

/**
 * Speaks the bot's messages. A message for a call whose webhook this process is answering
 * joins that answer (the call's turn, ./calls.ts); for a call live elsewhere (another process,
 * a `message()` from the API during the call) it waits as the call's pending verbs and the call
 * is redirected to fetch them (live call control: PUT the call with a call_hook); for a client
 * with no call it is the call: an outbound call is placed through the REST API, whose answer
 * speaks it. The message is `sent` with the call's sid; the call's outcome is its delivery
 * status (./updates.ts). A project may have several telephony channels: a message goes through
 * the channel of the client's call, or of their latest call (`telephony.channel`), in its voice.
 *
 * A call the gateway could not place for now (rate limited, no feature server free, a server
 * error, a lost connection) is a held send (`retryAt`), tried again with growing pauses within
 * BLOCKBOT_TELEPHONY_HOLD_HOURS. After a server error or a lost connection the call may have
 * been placed with its sid lost, so every later try first looks for it among the account's
 * calls (`placedCalls`): one from this number to the client that no message of theirs is known
 * by is that try's call, and is taken as it is, never placed again. The adapter does not set
 * `holdsSends`: a caller's turn must never wait behind a held call (docs/channels/telephony.md).
 */

const ended = (): DeliveryResult => ({
  delivered: false,
  error: 'the call had ended: a message to a call that is over is not spoken',
});

/** A call being dialed (not lost) or live: a message joins it rather than placing another. */
const ongoing = (call: CallState | null): call is CallState =>
  call?.status === 'live' || (call?.status === 'dialing' && Date.now() - (call.at ?? 0) < DIALING_STALE_MS);

/** Not placed now: tried again later within the channel's horizon, or failed for good past it. */
function holdOrFail(error: string, { attempt = 0, queuedAt }: SendContext, waitMs = 0): DeliveryResult {
  const now = new Date();
  const horizonMs = telephonyEnv().BLOCKBOT_TELEPHONY_HOLD_HOURS * 3600_000;
  const retryAt = heldRetryAt(attempt, queuedAt ?? now, now, horizonMs);
  if (!retryAt) return { delivered: false, error };
  return { delivered: false, error, retryAt: new Date(Math.max(retryAt.getTime(), now.getTime() + waitMs)) };
}

/**
 * The call an earlier try of this message placed without learning its sid, if any: the
 * account's outbound call from the channel's number to the client's that no message of the
 * client is known by. `unknown` when the gateway could not be asked.
 */
async function earlierCall(
  db: Db,
  provider: TelephonyProvider,
  channel: NonNullable<Awaited<ReturnType<typeof clientTelephonyChannel>>>,
  client: ChannelClient,
): Promise<{ sid: string; status: string } | null | { unknown: string }> {
  const listed = await provider.placedCalls(telephonyCredentials(channel), {
    from: channel.groupId,
    to: client.platformId,
  });
  if (!listed.ok) return { unknown: listed.error };
  if (!listed.calls.length) return null;
  const known = await db.message.findMany({
    where: { clientId: client.id, direction: 'out', externalId: { in: listed.calls.map((c) => c.sid) } },
    select: { externalId: true },
  });
  const knownSids = new Set(known.map((m) => m.externalId));
  return listed.calls.find((c) => !knownSids.has(c.sid)) ?? null;
}

export const telephonyChannel: ChannelAdapter = {
  clientType: TELEPHONY_CLIENT_TYPE,
  async send(client, message, context) {
    const { db } = context;
    const turn = openTurn(client.projectId, client.platformId);
    let call = turn ? null : await readCall(db, client.id);
    // A turn's channel came with its update; otherwise the channel of the client's call, or of their latest.
    const channel =
      turn?.channel ??
      (await clientTelephonyChannel(
        db,
        client.projectId,
        call?.channelId ?? (await lastChannelId(db, client.id)),
      ));
    if (!channel) return { delivered: false, error: 'no telephony channel is connected to this project' };
    const urls = telephonyUrls(channel.id);
    const verbs = messageVerbs(message, telephonySettings(channel), gatherHook(channel.id));
    if (turn) {
      if (turn.ended) return ended();
      turn.verbs.push(...verbs);
      return { delivered: true, externalId: turn.callSid };
    }
    const provider = providerOf(channel);
    const credentials = telephonyCredentials(channel);
    if (context.attempt && !ongoing(call)) {
      // A try after one that failed, which may have placed the call all the same.
      const earlier = await earlierCall(db, provider, channel, client);
      if (earlier && 'unknown' in earlier)
        return holdOrFail(
          `whether an earlier try placed the call is not known yet: ${earlier.unknown}`,
          context,
        );
      if (earlier && unanswered(earlier.status))
        return { delivered: false, error: deliveryOf(earlier.status)?.error };
      if (earlier?.status === 'completed')
        return {
          delivered: false,
          error: 'the call an earlier try placed ended before the message was spoken',
        };
      if (earlier) {
        call = {
          sid: earlier.sid,
          status: earlier.status === 'in-progress' ? 'live' : 'dialing',
          channelId: channel.id,
          at: Date.now(),
        };
        await writeCall(db, client.id, call);
      }
    }
    await addPending(db, client.id, verbs);
    if (call?.status === 'dialing' && ongoing(call)) return { delivered: true, externalId: call.sid };
    if (call?.status === 'live') {
      const redirected = await provider.redirectCall(credentials, call.sid, urls.pending);
      if (redirected.ok) return { delivered: true, externalId: call.sid };
      if (!redirected.gone) return { delivered: false, error: redirected.error };
      // The call is over: this message places a new one.
    }
    const placed = await provider.placeCall(credentials, {
      from: channel.groupId,
      to: client.platformId,
      callHook: urls.callHook,
      statusHook: urls.statusHook,
      tag: { clientId: client.id },
    });
    if (!placed.ok) {
      await db.clientChannelState.deleteMany({ where: { clientId: client.id, key: PENDING_KEY } });
      return placed.transient
        ? holdOrFail(placed.error, context, placed.retryAfterMs)
        : { delivered: false, error: placed.error };
    }
    await writeCall(db, client.id, {
      sid: placed.sid,
      status: 'dialing',
      channelId: channel.id,
      at: Date.now(),
    });
    return { delivered: true, externalId: placed.sid };
  },
  async call(_projectId, fn) {
    throw new Error(`${fn} is not a telephony function`);
  },
};
