import { hash } from 'node:crypto';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { buttonsSchema } from '@/lib/schema';
import {
  answerText,
  heardIn,
  messageVerbs,
  SILENCE_REPEATS,
  turnVerbs,
  unanswered,
  type Verb,
} from '@/lib/telephony/verbs';
import type { WebhookChannelRow } from '@/server/db/channel-update-sql';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { cappedBytes } from '../capped-body';
import type { ChannelEndpoint } from '../channel-module';
import { storeUpdates } from '../inbound/pipeline';
import { channelIdOf, webhookChannels } from '../webhook-channels';
import { findCaller, findCallerWithLastSaid } from './call-history';
import { awaitTurn, readCall, takePending, transferUnansweredNow, turnRunning, writeCall } from './calls';
import { gatherHook, telephonyCredentials, telephonySettings, telephonyUrls } from './channel-service';
import { type CallInfo, providerOf, type TelephonyProvider } from './provider';
import { finishTurn, type TelephonyUpdate, telephonyInbound } from './updates';

/**
 * `/api/channels/telephony/<channel>`: the jambonz application's calling webhook (call_hook),
 * and below it `/gather` (a gather's actionHook), `/status` (the call_status_hook),
 * `/pending` (where a live call is redirected to fetch what the bot said meanwhile),
 * `/dial-end` (a transfer's end) and `/transcript` (a transfer's transcriptionHook). Every request is checked against its `Jambonz-Signature`
 * (HMAC-SHA256 of the body with the account's webhook secret, within 5 minutes) before
 * anything is stored: no channel here is a 404, a missing, wrong or stale signature a 401.
 *
 * A call's turn is answered synchronously, as jambonz waits for the verbs: the update is
 * stored through the inbound pipeline (so a crash loses nothing: the sweeper runs it, and its
 * verbs reach the call by live call control), and this process, which runs it at once, hands
 * the turn's verbs to the waiting request (./calls.ts).
 */

const MAX_BODY_BYTES = 256 * 1024;
/**
 * How long a webhook waits for its turn before telling jambonz to pause and fetch it later
 * (a slow block request): within the few seconds a voice gateway waits for an answer.
 */
const TURN_WAIT_MS = 4000;
/** How often a call is told to pause again while its turn still runs here (2 s each). */
const MAX_WAITS = 30;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The channels as this process's webhooks check requests against them (../webhook-channels.ts):
 * a copy kept is good for what is stored, as the store checks the channel still is what the
 * copy says; what is answered before anything is stored (a question said again, the verbs a call
 * fetches, an outbound call answered) is checked against the channel as it is now (`verifiedNow`).
 */
const channels = webhookChannels('telephony', (row) => row);

const NOT_CONNECTED = 'no telephony channel is connected at this address';

type Verified = {
  deps: EngineDeps;
  channel: WebhookChannelRow;
  provider: TelephonyProvider;
  headers: Headers;
  info: CallInfo;
  body: Uint8Array;
  /** The channel was read for this request, not taken from the copy kept. */
  fresh: boolean;
};

/** The request read as the channel's webhook; 'unsigned' when its signature is not the channel's. */
function readWith(
  deps: EngineDeps,
  channel: WebhookChannelRow,
  headers: Headers,
  body: Uint8Array,
  fresh: boolean,
): Verified | 'unsigned' | Response {
  const provider = providerOf(channel);
  const now = Math.floor(deps.now().getTime() / 1000);
  const info = provider.readHook(body, headers, telephonyCredentials(channel), now);
  if (info === 'malformed')
    return json(400, { error: 'the body is not a voice gateway’s webhook (no call sid)' });
  return info === 'unsigned' ? info : { deps, channel, provider, headers, info, body, fresh };
}

const unsigned = () =>
  json(401, {
    error:
      'the Jambonz-Signature header is missing, stale, or not the signature of the body with this account’s webhook secret',
  });

async function verify(req: Request, channelParam: string): Promise<Verified | Response> {
  const id = channelIdOf(channelParam);
  const deps = await getEngineDeps();
  const kept = channels.cached(id);
  const channel = kept ?? (await channels.read(deps, id));
  if (!channel) return json(404, { error: NOT_CONNECTED });
  const body = await cappedBytes(req, MAX_BODY_BYTES);
  if (!body) return json(413, { error: `the body is over ${MAX_BODY_BYTES} bytes` });
  const read = readWith(deps, channel, req.headers, body, !kept);
  // A wrong signature may be a stale copy's: checked against the channel as it is now first.
  if (read === 'unsigned') return kept ? readNow(deps, id, req.headers, body) : unsigned();
  return read;
}

/** The request checked against the channel as it is now: read again unless it was for this request. */
const verifiedNow = async (v: Verified): Promise<Verified | Response> =>
  v.fresh ? v : readNow(v.deps, v.channel.id, v.headers, v.body);

async function readNow(
  deps: EngineDeps,
  channelId: number,
  headers: Headers,
  body: Uint8Array,
): Promise<Verified | Response> {
  const channel = await channels.read(deps, channelId);
  if (!channel) return json(404, { error: NOT_CONNECTED });
  const read = readWith(deps, channel, headers, body, true);
  return read === 'unsigned' ? unsigned() : read;
}

/** The request's own id: a webhook posted twice is one update. */
const bodyDigest = (v: Verified) => hash('sha256', v.body, 'hex').slice(0, 24);

/** The caller's number: who called in, or who an outbound call went to. */
const numberOf = (info: CallInfo) => (info.direction === 'outbound' ? info.to : info.from);

let sequence = 0;
const order = () => BigInt(Date.now()) * 1000n + BigInt(sequence++ % 1000);

/**
 * Stores an update on the inbound pipeline, in its caller's order, against the channel as this
 * request was verified with it (false, and the copy dropped, when the channel is no longer that:
 * disconnected); this process runs it at once (a turn's client claimed as it is stored).
 */
async function store(v: Verified, update: TelephonyUpdate): Promise<boolean> {
  const { channel } = v;
  const stored = await storeUpdates(
    v.deps,
    telephonyInbound,
    channel.id,
    [
      {
        externalId: update.key,
        order: order(),
        chat: phoneDigits(update.number),
        payload: update,
        parsed: update,
      },
    ],
    { secret: channel.inboundSecret, groupId: channel.groupId, projectId: channel.projectId },
  );
  if (!stored) channels.forget(channel.id);
  return stored;
}

/** Stores a turn's update and answers the verbs the bot's answer became. */
async function storeTurn(
  v: Verified,
  update: Exclude<TelephonyUpdate, { type: 'status' | 'utterance' }>,
): Promise<Response> {
  const waiting = awaitTurn(update.key, TURN_WAIT_MS);
  if (!(await store(v, update))) return json(404, { error: NOT_CONNECTED });
  const verbs = await waiting;
  // Processed elsewhere (a repeat, a slow turn): the call waits, then fetches what is pending.
  return v.provider.answer(verbs ?? waitForPending(v.channel.id, 1));
}

const waitForPending = (channelId: number, waits: number): Verb[] => [
  { verb: 'pause', length: 2 },
  { verb: 'redirect', actionHook: `${telephonyUrls(channelId).pending}?waits=${waits}` },
];

/** The calling webhook: a call comes in, or an outbound call placed for a message was answered. */
export async function telephonyWebhook(req: Request, channelParam: string): Promise<Response> {
  const v = await verify(req, channelParam);
  if (v instanceof Response) return v;
  const { info } = v;
  const callSid = info.callSid;
  if (info.direction === 'outbound') {
    const now = await verifiedNow(v);
    return now instanceof Response ? now : now.provider.answer(await pendingVerbs(now, true));
  }
  return storeTurn(v, { type: 'call', key: `call:${callSid}`, callSid, number: numberOf(info) });
}

/** A message to the client waits in the outbox to be tried again (a held send). */
const hasHeldSend = async (db: EngineDeps['db'], clientId: number) =>
  (await db.outbox.count({
    where: { clientId, kind: 'send', error: { not: null }, state: { in: ['pending', 'held'] } },
  })) > 0;

const clientOf = (v: Verified) => findCaller(v.deps.db, v.channel.projectId, phoneDigits(numberOf(v.info)));

/**
 * What waits for the call (an outbound call's message, a send made meanwhile), then the turn's
 * end; while the call's turn still runs in this process with nothing said yet, or, for an
 * outbound call, a message to the client is held (the call answered was placed by a try that
 * seemed to fail: the message's next try finds it and speaks in it), another pause.
 */
async function pendingVerbs(v: Verified, answered: boolean, waits = 0): Promise<Verb[]> {
  const client = await clientOf(v);
  if (!client) return [{ verb: 'hangup' }];
  if (answered) {
    // When it was placed stays: the recording is filed under the call's day.
    const placed = await readCall(v.deps.db, client.id);
    await writeCall(v.deps.db, client.id, {
      sid: v.info.callSid,
      status: 'live',
      channelId: v.channel.id,
      at: placed?.sid === v.info.callSid && placed.at ? placed.at : v.deps.now().getTime(),
    });
  }
  const verbs = await takePending(v.deps.db, client.id);
  if (
    !verbs.length &&
    waits < MAX_WAITS &&
    ((waits && turnRunning(v.info.callSid)) ||
      (v.info.direction === 'outbound' && (await hasHeldSend(v.deps.db, client.id))))
  )
    return waitForPending(v.channel.id, waits + 1);
  return finishTurn(
    v.deps,
    v.channel,
    { clientId: client.id, currentBlockId: client.currentBlockId },
    { verbs },
  );
}

/**
 * A gather's result: the caller's answer as their message (the option of the digit pressed or
 * the number said, read from the last thing said to them).
 */
async function gather(v: Verified, url: URL): Promise<Response> {
  const heard = heardIn(v.info.gather);
  if (!heard) return askAgain(v, url);
  const { last } = await findCallerWithLastSaid(
    v.deps.db,
    v.channel.projectId,
    phoneDigits(numberOf(v.info)),
  );
  const callSid = v.info.callSid;
  return storeTurn(v, {
    type: 'answer',
    // The gather's own turn id: alike answers to two gathers are two turns, a resend is one.
    key: `answer:${callSid}:${url.searchParams.get('turn') ?? ''}:${bodyDigest(v)}`,
    callSid,
    number: numberOf(v.info),
    text: answerText(heard, buttonsOf(last)),
  });
}

const buttonsOf = (said: { buttons: unknown } | null) =>
  buttonsSchema
    .nullable()
    .catch(null)
    .parse(said?.buttons ?? null);

/**
 * Silence (the gather timed out) asks the call's question again, the last message said in this
 * call, with its options, at most `SILENCE_REPEATS` times; then the call hangs up. Answered
 * before anything is stored: checked against the channel as it is now.
 */
async function askAgain(given: Verified, url: URL): Promise<Response> {
  const silences = Number(url.searchParams.get('silence') ?? 0) + 1;
  if (silences > SILENCE_REPEATS) return given.provider.answer([{ verb: 'hangup' }]);
  const v = await verifiedNow(given);
  if (v instanceof Response) return v;
  const { client, last } = await findCallerWithLastSaid(
    v.deps.db,
    v.channel.projectId,
    phoneDigits(numberOf(v.info)),
  );
  const settings = telephonySettings(v.channel);
  const again = gatherHook(v.channel.id, silences);
  // Only what was said in this call is its question (a call with nothing said yet listens
  // again), and not the announcement of a transfer nobody answered.
  const asked =
    client &&
    last?.externalId === v.info.callSid &&
    !transferUnansweredNow(await readCall(v.deps.db, client.id), client.botPausedAt);
  const question =
    asked && last
      ? messageVerbs({ ...last, attachments: [], buttons: buttonsOf(last) }, settings, again)
      : [];
  return v.provider.answer(turnVerbs(question, 'listen', again, settings));
}

const STATUSES_TAKEN = new Set(['in-progress', 'completed', 'failed', 'busy', 'no-answer']);

/**
 * The call_status_hook: stored, processed without the answer waiting for it. A leg's own
 * statuses (a transfer's dial to the operator: `parent_call_sid`) are taken and dropped: the
 * leg is part of its parent call, whose `/dial-end` says how the dial went; its number is no
 * caller.
 */
async function status(v: Verified): Promise<Response> {
  const { info } = v;
  const callStatus = info.status;
  if (info.parentCallSid || !STATUSES_TAKEN.has(callStatus)) return json(200, {});
  const callSid = info.callSid;
  const update: TelephonyUpdate = {
    type: 'status',
    key: `status:${callSid}:${callStatus}`,
    callSid,
    number: numberOf(info),
    status: callStatus,
  };
  return (await store(v, update)) ? json(200, {}) : json(404, { error: NOT_CONNECTED });
}

/**
 * A transfer's dial ended (its actionHook). After a conversation with the operator the call
 * hangs up; a dial nobody answered (busy, no answer, failed) is a turn: the callback
 * `call_transfer_failed` for the flow to catch, or, caught by nothing, the call stays for the
 * inbox (./updates.ts).
 */
async function dialEnd(v: Verified): Promise<Response> {
  const { info } = v;
  if (!unanswered(info.dialStatus)) return v.provider.answer([{ verb: 'hangup' }]);
  return storeTurn(v, {
    type: 'transfer_failed',
    key: `transfer:${info.callSid}:${bodyDigest(v)}`,
    callSid: info.callSid,
    number: numberOf(info),
    status: info.dialStatus,
  });
}

/**
 * A transfer's transcriptionHook (the `transcribe` nested in its `dial`): each final utterance
 * is stored, processed without the answer waiting for it; interim ones are answered and dropped.
 */
async function transcript(v: Verified): Promise<Response> {
  const { info } = v;
  if (!info.utterance) return json(200, {});
  const stored = await store(v, {
    type: 'utterance',
    key: `utterance:${info.callSid}:${bodyDigest(v)}`,
    callSid: info.callSid,
    number: numberOf(info),
    ...info.utterance,
  });
  return stored ? json(200, {}) : json(404, { error: NOT_CONNECTED });
}

export const telephonyEndpoint: ChannelEndpoint = async (req, channelParam, path) => {
  const v = await verify(req, channelParam);
  if (v instanceof Response) return v;
  switch (path.join('/')) {
    case 'gather':
      return gather(v, new URL(req.url));
    case 'status':
      return status(v);
    case 'transcript':
      return transcript(v);
    case 'pending': {
      const now = await verifiedNow(v);
      if (now instanceof Response) return now;
      const waits = Number(new URL(req.url).searchParams.get('waits') ?? 0);
      return now.provider.answer(await pendingVerbs(now, false, waits));
    }
    case 'dial-end':
      return dialEnd(v);
    default:
      return json(404, { error: `no telephony endpoint /${path.join('/')}` });
  }
};
