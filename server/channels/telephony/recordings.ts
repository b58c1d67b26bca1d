import { z } from 'zod';
import { MESSAGE_FROM } from '@/lib/history-message';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { fileAttachment, storeFile } from '@/server/files/stored-files';
import { defineJob, enqueue } from '@/server/jobs/jobs';
import { logFor } from '@/server/log';
import { keepCallMessage } from './call-history';
import { telephonyCredentials } from './channel-service';
import { providerOf } from './provider';

const log = logFor('telephony');

/**
 * A finished call's recording, kept when the channel's "keep recordings" is on
 * (docs/channels/telephony.md, "Recordings"): jambonz uploads it to the account's storage
 * after the call, and this job, queued when the call completes, fetches it through the REST
 * API (the provider's `fetchRecording`), stores it as the client's file (`storeFile`, keyed by
 * the call: a job run twice stores it once) and adds it to the client's history as an audio
 * attachment (a message keyed by the call too; the bot does not run). Not there yet (404) is
 * retried with backoff for RECORDING_WAIT_MS, then given up with a log line.
 */

/** How long after a call its recording is waited for. */
export const RECORDING_WAIT_MS = 5 * 60_000;

const jobData = z.object({
  channelId: z.number().int().positive(),
  clientId: z.number().int().positive(),
  callSid: z.string().min(1).max(200),
  /** When the call started (ms): its recording is filed under this day, in UTC. */
  startedAt: z.number(),
  /** When to stop waiting for it (ms). */
  giveUpAt: z.number(),
});
export type RecordingJob = z.infer<typeof jobData>;

/** Thrown for a recording not uploaded yet: the job is retried (pg-boss's backoff). */
class NotYet extends Error {}

/**
 * Fetches and keeps the recording, once; throws while it is not there yet (the job is retried),
 * logs and returns once it is given up.
 */
export async function keepRecording(deps: EngineDeps, input: RecordingJob): Promise<void> {
  const data = jobData.parse(input);
  const channel = await deps.db.channel.findFirst({ where: { id: data.channelId, kind: 'telephony' } });
  const client = await deps.db.client.findUnique({
    where: { id: data.clientId },
    select: { projectId: true },
  });
  if (!channel || !client || client.projectId !== channel.projectId) return;
  const dedupeKey = `telephony-recording:${data.callSid}`;
  if (await deps.db.message.findUnique({ where: { dedupeKey }, select: { id: true } })) return;
  const got = await providerOf(channel).fetchRecording(
    telephonyCredentials(channel),
    data.callSid,
    new Date(data.startedAt),
  );
  if (!got.ok) {
    if (deps.now().getTime() < data.giveUpAt)
      throw new NotYet(`the recording of ${data.callSid}: ${got.error}`);
    log.warn(`the recording of call ${data.callSid} was not kept: ${got.error}`);
    return;
  }
  const file = await storeFile(deps.db, {
    projectId: channel.projectId,
    clientId: data.clientId,
    name: got.name,
    mimeType: got.mimeType,
    bytes: got.bytes,
    uploadKey: `recording:${data.callSid}`,
  });
  await keepCallMessage(deps.db, {
    projectId: channel.projectId,
    clientId: data.clientId,
    direction: 'in',
    text: '',
    attachments: [fileAttachment(file)],
    messageFromOutside: MESSAGE_FROM.telephony,
    dedupeKey,
  });
}

export const telephonyRecordingJob = defineJob<RecordingJob>({
  name: 'telephony.recording',
  handle: async (data) => keepRecording(await getEngineDeps(), data),
});

/** Queues the fetching of a finished call's recording. */
export async function queueRecording(deps: EngineDeps, call: Omit<RecordingJob, 'giveUpAt'>): Promise<void> {
  await enqueue(
    telephonyRecordingJob,
    { ...call, giveUpAt: deps.now().getTime() + RECORDING_WAIT_MS },
    // 2, 4, 8 … s, at most a minute apart: retried past RECORDING_WAIT_MS, when it gives up.
    { retryLimit: 12, retryDelay: 2, retryBackoff: true, retryDelayMax: 60 },
  );
}
