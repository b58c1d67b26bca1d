import { z } from 'zod';
import { MESSAGE_FROM } from '@/lib/history-message';
import type { Utterance } from '@/lib/telephony/transcript';
import type { Db } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import type { EngineDeps } from '@/server/engine/engine-deps';
import type { UpdateChannel, UpdateEnd } from '../inbound/pipeline';
import { findCaller, keepCallMessage } from './call-history';
import { TRANSCRIPT_KEY, writeState } from './calls';

/**
 * A transferred call's transcript (docs/channels/telephony.md, "Transcripts"): each final
 * utterance jambonz's `transcribe` posts to `/transcript` is an update of the inbound pipeline
 * (in the caller's order), stored in the client's history without running the bot: the
 * caller's words as an incoming message, the operator's as an outgoing one. The call's lines
 * are also kept in the client's channel state (`telephony.transcript`) until the call ends,
 * when `call_ended` carries them as `call_transcript` and the state goes with the call.
 */

const lineSchema = z.object({ key: z.string(), speaker: z.enum(['caller', 'operator']), text: z.string() });
const stateSchema = z.object({ callSid: z.string(), lines: z.array(lineSchema) });
type TranscriptState = z.infer<typeof stateSchema>;

async function readState(db: Db, clientId: number): Promise<TranscriptState | null> {
  const row = await db.clientChannelState.findUnique({
    where: { clientId_key: { clientId, key: TRANSCRIPT_KEY } },
  });
  if (!row) return null;
  try {
    return stateSchema.parse(JSON.parse(row.value));
  } catch {
    return null;
  }
}

/** The final utterances of the client's call `callSid` so far, in order. */
export async function callTranscript(db: Db, clientId: number, callSid: string): Promise<Utterance[]> {
  const state = await readState(db, clientId);
  return state?.callSid === callSid ? state.lines.map(({ speaker, text }) => ({ speaker, text })) : [];
}

/** Adds a line to the call's transcript once (by its update's key); another call's lines are dropped. */
async function addLine(db: Db, clientId: number, callSid: string, line: z.infer<typeof lineSchema>) {
  const state = await readState(db, clientId);
  const lines = state?.callSid === callSid ? state.lines : [];
  if (lines.some((l) => l.key === line.key)) return;
  await writeState(db, clientId, TRANSCRIPT_KEY, JSON.stringify({ callSid, lines: [...lines, line] }));
}

/**
 * One final utterance: stored in the client's history once (its message keyed by the update),
 * added to the call's transcript, and the update marked done. Updates of one caller run one at
 * a time, so the transcript is read and written by one at once; a repeat (the sweeper after a
 * crash) finds both done.
 */
export async function storeUtterance(
  deps: EngineDeps,
  channel: UpdateChannel,
  update: { key: string; callSid: string; platformId: string } & Utterance,
  end: UpdateEnd,
): Promise<void> {
  const client = await findCaller(deps.db, channel.projectId, update.platformId);
  if (client) {
    const stored = await keepCallMessage(deps.db, {
      projectId: channel.projectId,
      clientId: client.id,
      direction: update.speaker === 'caller' ? 'in' : 'out',
      text: update.text,
      messageFromOutside: update.speaker === 'caller' ? MESSAGE_FROM.client : MESSAGE_FROM.telephony,
      dedupeKey: `telephony:${channel.id}:${update.key}`,
    });
    // The caller wrote, as far as the inbox's order of conversations goes.
    if (stored && update.speaker === 'caller')
      await deps.db.client.update({ where: { id: client.id }, data: { lastMessageAt: deps.now() } });
    await addLine(deps.db, client.id, update.callSid, {
      key: update.key,
      speaker: update.speaker,
      text: update.text,
    });
  }
  await plainSql(deps.db).run(end.done.statement, end.done.params);
}
