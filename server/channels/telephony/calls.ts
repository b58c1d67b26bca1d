import { z } from 'zod';
import type { Verb } from '@/lib/telephony/verbs';
import type { Db } from '@/server/db/client-type';
import type { TelephonyChannelRow } from './sql';

/**
 * What the channel knows of a client's call, and the turns this process is answering.
 *
 * A call's state is the client's channel state (`ClientChannelState`, never the bot's
 * variables): `telephony.call` holds its sid and whether it is being dialed or live, and
 * `telephony.pending` the verbs waiting for it (an outbound call not answered yet, or a send
 * made while no webhook of the call was being answered in this process), and
 * `telephony.channel` the channel of the client's latest call, kept after it ends: the bot's
 * later messages call the client back through it (`clientTelephonyChannel`).
 *
 * A turn is one webhook's answer being built: while the engine runs the caller's message in
 * this process, the adapter's sends append their verbs to the call's turn, and the webhook
 * answers them. A turn of a call that has ended (the call events `call_ended`,
 * `call_missed`) takes no verbs: nothing is spoken to a call that is over.
 */

export const CALL_KEY = 'telephony.call';
export const PENDING_KEY = 'telephony.pending';
export const CHANNEL_KEY = 'telephony.channel';
/** The final utterances of the client's latest transferred call (./transcripts.ts). */
export const TRANSCRIPT_KEY = 'telephony.transcript';

export const callStateSchema = z.object({
  sid: z.string(),
  status: z.enum(['dialing', 'live']),
  channelId: z.number().int(),
  /**
   * When it was placed or came in (ms): a call still "dialing" long after is lost (no status
   * came); a finished call's recording is filed under this day.
   */
  at: z.number().optional(),
  /**
   * The start (ms) of the bot's pause in which this call's transfer went unanswered: while that
   * pause lasts the call is not transferred again (it stays for the inbox).
   */
  transferUnanswered: z.number().optional(),
});
export type CallState = z.infer<typeof callStateSchema>;

/** The call's transfer went unanswered in the bot's current pause for the client (`pausedAt`). */
export const transferUnansweredNow = (call: CallState | null, pausedAt: Date | null) =>
  pausedAt !== null && call?.transferUnanswered === pausedAt.getTime();

/** A dialing call with no status for this long is taken as lost: the next message places another. */
export const DIALING_STALE_MS = 3 * 60_000;

export async function readCall(db: Db, clientId: number): Promise<CallState | null> {
  const row = await db.clientChannelState.findUnique({
    where: { clientId_key: { clientId, key: CALL_KEY } },
  });
  if (!row) return null;
  try {
    return callStateSchema.parse(JSON.parse(row.value));
  } catch {
    return null;
  }
}

/** Writes one key of the client's channel state; null deletes it. */
export async function writeState(db: Db, clientId: number, key: string, value: string | null) {
  if (value === null) await db.clientChannelState.deleteMany({ where: { clientId, key } });
  else
    await db.clientChannelState.upsert({
      where: { clientId_key: { clientId, key } },
      create: { clientId, key, value },
      update: { value, updatedAt: new Date() },
    });
}

/** The channel of the client's latest call (none before their first). */
export async function lastChannelId(db: Db, clientId: number): Promise<number | null> {
  const row = await db.clientChannelState.findUnique({
    where: { clientId_key: { clientId, key: CHANNEL_KEY } },
  });
  const id = Number(row?.value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Writes the call state (and, for a call, its channel as the client's latest); null: the call is over. */
export async function writeCall(db: Db, clientId: number, call: CallState | null): Promise<void> {
  await writeState(db, clientId, CALL_KEY, call && JSON.stringify(call));
  if (call) await writeState(db, clientId, CHANNEL_KEY, String(call.channelId));
}

/**
 * The call state as an event's channel state (written with the event); a call that ended takes
 * its pending verbs and its transcript with it.
 */
export const callChannelState = (call: CallState | null) => ({
  [CALL_KEY]: call && JSON.stringify(call),
  ...(call ? { [CHANNEL_KEY]: String(call.channelId) } : { [PENDING_KEY]: null, [TRANSCRIPT_KEY]: null }),
});

/** Adds verbs to those waiting for the client's call. */
export async function addPending(db: Db, clientId: number, verbs: Verb[]): Promise<void> {
  if (!verbs.length) return;
  await db.$transaction(async (tx) => {
    const row = await tx.clientChannelState.findUnique({
      where: { clientId_key: { clientId, key: PENDING_KEY } },
    });
    const before = row ? (JSON.parse(row.value) as Verb[]) : [];
    await writeState(tx as unknown as Db, clientId, PENDING_KEY, JSON.stringify([...before, ...verbs]));
  });
}

/** Takes the verbs waiting for the client's call (they are answered once). */
export async function takePending(db: Db, clientId: number): Promise<Verb[]> {
  const rows = await db.clientChannelState.findMany({ where: { clientId, key: PENDING_KEY } });
  if (!rows.length) return [];
  const { count } = await db.clientChannelState.deleteMany({
    where: { clientId, key: PENDING_KEY, value: rows[0].value },
  });
  return count ? (JSON.parse(rows[0].value) as Verb[]) : [];
}

export interface Turn {
  callSid: string;
  /** The channel the call is on: what is said in it is in its voice, its gathers answer to it. */
  channel: TelephonyChannelRow;
  /** The call has ended: sends are not spoken. */
  ended: boolean;
  verbs: Verb[];
}

type TurnAnswer = Verb[];

/**
 * The process's open turns, the calls whose turn it runs and the webhooks waiting for theirs:
 * one for the whole process (kept on globalThis, as the tg pacer is), though the webhook's
 * route and the engine's adapter may be loaded as separate module copies (server chunks).
 */
interface TurnRegistry {
  turns: Map<string, Turn>;
  running: Set<string>;
  waiters: Map<string, (verbs: TurnAnswer) => void>;
}
const processGlobal = globalThis as unknown as { blockbotTelephonyTurns?: TurnRegistry };
processGlobal.blockbotTelephonyTurns ??= { turns: new Map(), running: new Set(), waiters: new Map() };
const { turns, running, waiters } = processGlobal.blockbotTelephonyTurns;

/** This process is still running a turn of the call (a webhook that stopped waiting asks). */
export const turnRunning = (callSid: string) => running.has(callSid);
const clientKey = (projectId: number, platformId: string) => `${projectId}:${platformId}`;

/** Runs `work` with the client's call turn open in this process; answers what it collected. */
export async function withTurn<T>(
  projectId: number,
  platformId: string,
  call: Pick<Turn, 'callSid' | 'channel' | 'ended'>,
  work: (turn: Turn) => Promise<T>,
): Promise<{ turn: Turn; result: T }> {
  const key = clientKey(projectId, platformId);
  const { callSid } = call;
  const turn: Turn = { ...call, verbs: [] };
  const before = turns.get(key);
  turns.set(key, turn);
  running.add(callSid);
  try {
    return { turn, result: await work(turn) };
  } finally {
    running.delete(callSid);
    if (before) turns.set(key, before);
    else if (turns.get(key) === turn) turns.delete(key);
  }
}

/** The client's call turn open in this process, if any. */
export const openTurn = (projectId: number, platformId: string): Turn | undefined =>
  turns.get(clientKey(projectId, platformId));

/**
 * Waits for the turn of an update this process stored (by its id) to be answered by the
 * processor; undefined after `ms` (the update was a repeat, or is processed elsewhere).
 */
export function awaitTurn(updateId: string, ms: number): Promise<TurnAnswer | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiters.delete(updateId);
      resolve(undefined);
    }, ms);
    waiters.set(updateId, (verbs) => {
      clearTimeout(timer);
      waiters.delete(updateId);
      resolve(verbs);
    });
  });
}

/** Hands a turn's verbs to its waiting webhook; false when none waits (the caller then redirects the call). */
export function answerTurn(updateId: string, verbs: TurnAnswer): boolean {
  const waiter = waiters.get(updateId);
  if (!waiter) return false;
  waiter(verbs);
  return true;
}
