import { messageVerbs } from '@/lib/telephony/verbs';
import type { ChannelAdapter, DeliveryResult } from '../channel-adapter';
import {
  addPending,
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
import { providerOf } from './provider';

/**
 * Speaks the bot's messages. A message for a call whose webhook this process is answering
 * joins that answer (the call's turn, ./calls.ts); for a call live elsewhere (another process,
 * a `message()` from the API during the call) it waits as the call's pending verbs and the call
 * is redirected to fetch them (live call control: PUT the call with a call_hook); for a client
 * with no call it is the call: an outbound call is placed through the REST API, whose answer
 * speaks it. The message is `sent` with the call's sid; the call's outcome is its delivery
 * status (./updates.ts). A project may have several telephony channels: a message goes through
 * the channel of the client's call, or of their latest call (`telephony.channel`), in its voice.
 */

const ended = (): DeliveryResult => ({
  delivered: false,
  error: 'the call had ended: a message to a call that is over is not spoken',
});

export const telephonyChannel: ChannelAdapter = {
  clientType: TELEPHONY_CLIENT_TYPE,
  async send(client, message, { db }) {
    const turn = openTurn(client.projectId, client.platformId);
    const call = turn ? null : await readCall(db, client.id);
    const channelId = turn?.channelId ?? call?.channelId ?? (await lastChannelId(db, client.id));
    const channel = await clientTelephonyChannel(db, client.projectId, channelId);
    if (!channel) return { delivered: false, error: 'no telephony channel is connected to this project' };
    const urls = telephonyUrls(channel.id);
    const verbs = messageVerbs(message, telephonySettings(channel), gatherHook(channel.id));
    if (turn) {
      if (turn.ended) return ended();
      turn.verbs.push(...verbs);
      return { delivered: true, externalId: turn.callSid };
    }
    await addPending(db, client.id, verbs);
    const provider = providerOf(channel);
    const credentials = telephonyCredentials(channel);
    if (call?.status === 'dialing' && Date.now() - (call.at ?? 0) < DIALING_STALE_MS)
      return { delivered: true, externalId: call.sid };
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
      return { delivered: false, error: placed.error };
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
