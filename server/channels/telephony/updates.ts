import { z } from 'zod';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { MESSAGE_FROM } from '@/lib/history-message';
import { isBotPaused } from '@/lib/inbox/pause';
import { transcriptText } from '@/lib/telephony/transcript';
import {
  CALL_EVENTS,
  deliveryOf,
  transferVerb,
  turnVerbs,
  unanswered,
  type Verb,
} from '@/lib/telephony/verbs';
import { plainSql } from '@/server/db/raw-sql';
import { getCompiledBot } from '@/server/engine/compiled-bot';
import type { EngineDeps } from '@/server/engine/engine-deps';
import type { EngineEvent } from '@/server/engine/events';
import { type ClaimedAhead, type EventResult, handleEvent } from '@/server/engine/handle-event';
import { logFor } from '@/server/log';
import { loadVersionSchema } from '@/server/versions/bot-versions';
import { recordDeliveryStatus } from '../delivery-status';
import type { InboundProcessor, UpdateChannel, UpdateEnd } from '../inbound/pipeline';
import { findCaller } from './call-history';
import {
  addPending,
  answerTurn,
  type CallState,
  callChannelState,
  readCall,
  type Turn,
  transferUnansweredNow,
  withTurn,
} from './calls';
import {
  gatherHook,
  TELEPHONY_CLIENT_TYPE,
  type TelephonySettings,
  telephonyCredentials,
  telephonySettings,
  telephonyUrls,
} from './channel-service';
import { providerOf } from './provider';
import { queueRecording } from './recordings';
import { type TelephonyChannelRow, turnEndState } from './sql';
import { callTranscript, storeUtterance } from './transcripts';

const log = logFor('telephony');

/**
 * What the channel's stored updates do, on the channels' inbound pipeline:
 * - `call`: a call came in; the caller (found or created by number) gets the callback
 *   `call_answered` (`message_from_outside` 5), routed as any message, and the bot's answer is
 *   spoken;
 * - `answer`: what the caller pressed or said in answer to a gather, as the client's message;
 * - `transfer_failed`: a transfer's dial nobody answered (busy, no answer, failed): the callback
 *   `call_transfer_failed` (`message_from_outside` 5, its status in `call_transfer_status`),
 *   routed even while the bot is paused; caught, the bot has the call back (the pause ends),
 *   caught by nothing, the call stays for the inbox and is not transferred again in this pause;
 * - `status`: the call's status changed: an outbound call's outcome is the delivery status of
 *   the message it was placed for, a call that ends reaches the bot as `call_ended` (with the
 *   call's transcript as `call_transcript`, and its recording fetched afterwards when the
 *   channel keeps them: ./recordings.ts), one never answered as `call_missed` (both
 *   `message_from_outside` 5; nothing the bot sends then is spoken, the call being over);
 * - `utterance`: a final utterance of a transferred call's transcript, stored in the history
 *   without running the bot (./transcripts.ts).
 * Each turn's verbs go back to the webhook waiting for them in this process (`answerTurn`), or,
 * when none waits (the webhook's process died and the sweeper runs the update), to the live
 * call by live call control.
 */

const updateSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call'), key: z.string(), callSid: z.string(), number: z.string() }),
  z.object({
    type: z.literal('answer'),
    key: z.string(),
    callSid: z.string(),
    number: z.string(),
    text: z.string(),
  }),
  z.object({
    type: z.literal('status'),
    key: z.string(),
    callSid: z.string(),
    number: z.string(),
    status: z.string(),
  }),
  z.object({
    type: z.literal('transfer_failed'),
    key: z.string(),
    callSid: z.string(),
    number: z.string(),
    status: z.string(),
  }),
  z.object({
    type: z.literal('utterance'),
    key: z.string(),
    callSid: z.string(),
    number: z.string(),
    speaker: z.enum(['caller', 'operator']),
    text: z.string(),
  }),
]);
export type TelephonyUpdate = z.infer<typeof updateSchema>;

const refOf = (number: string) => ({
  clientType: TELEPHONY_CLIENT_TYPE,
  groupId: '',
  platformId: phoneDigits(number),
});

async function run(
  deps: EngineDeps,
  channel: UpdateChannel,
  update: TelephonyUpdate,
  end: UpdateEnd,
  claimedAhead?: ClaimedAhead,
) {
  const ref = refOf(update.number);
  if (update.type === 'status') return runStatus(deps, channel, update, end);
  if (update.type === 'utterance')
    return storeUtterance(deps, channel, { ...update, platformId: ref.platformId }, end);
  // A call coming in is live from now; an answer comes on a call already live (its state, with
  // when it started, written when it came in or was answered), so its turn writes none.
  const live = {
    sid: update.callSid,
    status: 'live' as const,
    channelId: channel.id,
    at: deps.now().getTime(),
  };
  const call = { callSid: update.callSid, channel, ended: false };
  const event: EngineEvent =
    update.type === 'call'
      ? {
          type: 'message',
          text: CALL_EVENTS.answered,
          messageFromOutside: MESSAGE_FROM.telephony,
          channelState: callChannelState(live),
        }
      : update.type === 'transfer_failed'
        ? await transferFailed(deps, channel, update, live)
        : { type: 'message', text: update.text };
  const { turn, result } = await withTurn(channel.projectId, ref.platformId, call, () =>
    handleEvent(deps, channel.projectId, { ref }, event, {
      alsoWrite: end.done,
      ...(claimedAhead ? { claimedAhead } : {}),
    }),
  );
  const verbs = await finishTurn(deps, channel, result, turn);
  if (answerTurn(update.key, verbs)) return;
  // No webhook of this call waits here: the call fetches the verbs (live call control).
  await addPending(deps.db, result.clientId, verbs);
  const redirected = await providerOf(channel).redirectCall(
    telephonyCredentials(channel),
    update.callSid,
    telephonyUrls(channel.id).pending,
  );
  if (!redirected.ok) log.warn(`call ${update.callSid} not redirected: ${redirected.error}`);
}

/**
 * A transfer nobody answered, as the callback the flow may catch; the call remembers it for the
 * bot's current pause, so that, caught by nothing, it is not transferred again.
 */
async function transferFailed(
  deps: EngineDeps,
  channel: UpdateChannel,
  update: Extract<TelephonyUpdate, { type: 'transfer_failed' }>,
  live: CallState,
): Promise<EngineEvent> {
  const caller = await findCaller(deps.db, channel.projectId, refOf(update.number).platformId);
  const call = caller && (await readCall(deps.db, caller.id));
  return {
    type: 'message',
    text: CALL_EVENTS.transferFailed,
    messageFromOutside: MESSAGE_FROM.telephony,
    variables: { call_transfer_status: update.status },
    resumesBot: true,
    channelState: callChannelState({
      ...(call?.sid === update.callSid ? call : live),
      transferUnanswered: caller?.botPausedAt?.getTime(),
    }),
  };
}

type TurnResult = Pick<EventResult, 'clientId' | 'currentBlockId' | 'left'>;

/**
 * A turn's verbs: what the bot said, then a transfer (the bot asked for an operator and the
 * channel has a transfer number), a hangup (a red block, or a block with no arrows out and no
 * buttons: the end of the flow), or a gather waiting for the caller's answer.
 */
export async function finishTurn(
  deps: EngineDeps,
  channel: TelephonyChannelRow,
  result: TurnResult,
  turn: Pick<Turn, 'verbs'>,
): Promise<Verb[]> {
  const settings = telephonySettings(channel);
  const urls = telephonyUrls(channel.id);
  const end = await turnEnd(deps, channel.projectId, result, settings);
  if (end === 'dial')
    return [
      ...turn.verbs,
      transferVerb(
        {
          number: settings.transferNumber,
          callerId: channel.groupId,
          actionHook: urls.dialEnd,
          ...(settings.transcribeTransfers && { transcriptionHook: urls.transcript }),
        },
        settings,
      ),
    ];
  return turnVerbs(turn.verbs, end, gatherHook(channel.id), settings);
}

/** How the turn's event left the client; read when it ran none here (a repeat, a pending fetch). */
async function leftBy(deps: EngineDeps, projectId: number, result: TurnResult) {
  if (result.left) return result.left;
  const [client] = await plainSql(deps.db).run(turnEndState, { clientId: result.clientId });
  if (!client) throw new Error(`the client ${result.clientId} is gone`);
  const version = client.publishedVersion;
  const bot = await getCompiledBot(projectId, 'published', version, () =>
    loadVersionSchema(deps.db, projectId, version),
  );
  return { pause: client, bot };
}

async function turnEnd(
  deps: EngineDeps,
  projectId: number,
  result: TurnResult,
  settings: TelephonySettings,
): Promise<'dial' | 'listen' | 'hangup'> {
  const { clientId, currentBlockId } = result;
  const { pause, bot } = await leftBy(deps, projectId, result);
  if (isBotPaused(pause, deps.now())) {
    // A transfer that went unanswered in this pause is not tried again in the call.
    if (!settings.transferNumber) return 'listen';
    return transferUnansweredNow(await readCall(deps.db, clientId), pause.botPausedAt) ? 'listen' : 'dial';
  }
  if (currentBlockId === null) return 'hangup';
  const block = bot.blocks.get(currentBlockId);
  if (!block || block.kind === 'close_deal') return 'hangup';
  const buttons = block.buttons ? (Array.isArray(block.buttons) ? block.buttons : block.buttons.buttons) : [];
  if (!bot.arrowsFrom.get(currentBlockId)?.length && !buttons.length) return 'hangup';
  return 'listen';
}

async function runStatus(
  deps: EngineDeps,
  channel: UpdateChannel,
  update: Extract<TelephonyUpdate, { type: 'status' }>,
  end: UpdateEnd,
) {
  const ref = refOf(update.number);
  const client = await findCaller(deps.db, channel.projectId, ref.platformId);
  const outcome = deliveryOf(update.status);
  if (client && outcome)
    await recordDeliveryStatus(deps, {
      projectId: channel.projectId,
      clientId: client.id,
      externalId: update.callSid,
      ...outcome,
    });
  const event =
    update.status === 'completed' ? CALL_EVENTS.ended : unanswered(update.status) ? CALL_EVENTS.missed : null;
  if (!event) return void (await plainSql(deps.db).run(end.done.statement, end.done.params));
  const settings = telephonySettings(channel);
  const transcript = client ? await callTranscript(deps.db, client.id, update.callSid) : [];
  if (client && event === CALL_EVENTS.ended && settings.keepRecordings) {
    const placed = await readCall(deps.db, client.id);
    const at = placed?.sid === update.callSid ? placed.at : undefined;
    await queueRecording(deps, {
      channelId: channel.id,
      clientId: client.id,
      callSid: update.callSid,
      startedAt: at ?? deps.now().getTime(),
    });
  }
  const call = { callSid: update.callSid, channel, ended: true };
  await withTurn(channel.projectId, ref.platformId, call, () =>
    handleEvent(
      deps,
      channel.projectId,
      { ref },
      {
        type: 'message',
        text: event,
        messageFromOutside: MESSAGE_FROM.telephony,
        channelState: callChannelState(null),
        ...(event === CALL_EVENTS.ended &&
          (settings.transcribeTransfers || transcript.length > 0) && {
            variables: { call_transcript: transcriptText(transcript) },
          }),
      },
      { alsoWrite: end.done },
    ),
  );
}

export const telephonyInbound: InboundProcessor<TelephonyUpdate> = {
  kind: 'telephony',
  parse: (payload) => updateSchema.parse(payload),
  // A call coming in and a caller's answer are one event each; a failed transfer reads the call first.
  eventTarget: (update) =>
    update.type === 'call' || update.type === 'answer' ? { ref: refOf(update.number) } : undefined,
  run,
};
