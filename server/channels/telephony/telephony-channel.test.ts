import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '@/lib/channels/operation-result';
import { MESSAGE_FROM } from '@/lib/history-message';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { broadcastDispatchJob, broadcastSendJob } from '@/server/broadcasts/broadcast-jobs';
import type { PrismaClient } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import { releaseHeldSends } from '@/server/engine/held-sends';
import { sweepOutbox } from '@/server/engine/outbox';
import { startWorkers } from '@/server/jobs/jobs';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { type ChatappTestApp, useChatappTestApp } from '../chatapp/testing/chatapp-test-app';
import { storeUpdates } from '../inbound/pipeline';
import { CALL_KEY, TRANSCRIPT_KEY } from './calls';
import type { updateTelephonySettings } from './channel-service';
import { keepRecording, telephonyRecordingJob } from './recordings';
import { connectNumber } from './testing/connect-number';
import { type FakeCall, type FakeJambonz, startFakeJambonz } from './testing/fake-jambonz';
import { telephonyInbound } from './updates';

/**
 * The telephony channel end to end: a jambonz gateway (the fake, on 127.0.0.1) connected
 * through the web app's API, calls driven against the real route over HTTP with signed
 * webhooks, the bot's blocks spoken and its buttons gathered as digits and speech, outbound
 * calls placed for the API's messages with their outcome as delivery status, and call events
 * reaching the bot.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-telephony-'));
let app: ChatappTestApp;
let db: PrismaClient;
let fake: FakeJambonz;
let projectId: number;
let channelId: number;
let callHook: string;

/** A block request's server answering after 4.5 s: longer than a webhook waits for its turn. */
let slow: http.Server;

beforeAll(async () => {
  fake = await startFakeJambonz();
  slow = http.createServer((_req, res) => setTimeout(() => res.end('{}'), 4500));
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
  app = await useChatappTestApp(tmp, {});
  ({ db, projectId } = app);
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Welcome to Pizza.',
        trigger: { alternatives: '' },
        buttons: {
          hint: 'What would you like?',
          buttons: [{ text: 'Order a pizza' }, { text: 'Opening hours' }],
        },
      },
      { id: 2, kind: 'state', text: 'Which size? Say small or large.' },
      { id: 3, kind: 'state', text: 'We are open from nine to five.' },
      { id: 4, kind: 'close_deal', text: 'A large pizza is on its way. Goodbye.' },
      { id: 5, kind: 'start', text: 'Sorry we missed you', trigger: { alternatives: 'call_missed' } },
      {
        id: 6,
        kind: 'start',
        text: 'Connecting you to an operator.',
        trigger: { alternatives: 'operator' },
        formula: 'ask_operator()',
      },
      {
        id: 7,
        kind: 'start',
        text: 'Thanks for waiting.',
        trigger: { alternatives: 'slow' },
        request: { type: 'GET', url: slowUrl },
      },
      {
        id: 8,
        kind: 'start',
        text: 'Round one.',
        trigger: { alternatives: 'loop' },
        buttons: [{ type: 'reply', text: 'Next' }],
      },
      { id: 9, kind: 'state', text: 'Round two.', buttons: [{ type: 'reply', text: 'Next' }] },
      {
        id: 10,
        kind: 'start',
        text: 'Connecting you to an agent.',
        trigger: { alternatives: 'agent' },
        formula: 'ask_operator()',
      },
      {
        id: 11,
        kind: 'state',
        text: 'Nobody is free right now (#{call_transfer_status}).',
        buttons: [{ type: 'reply', text: 'Opening hours' }],
      },
    ],
    arrows: [
      { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'Order a pizza' } },
      { id: 2, from: 1, to: 3, kind: 'condition', condition: { alternatives: 'Opening hours' } },
      { id: 3, from: 2, to: 4, kind: 'condition', condition: { alternatives: 'large' } },
      { id: 4, from: 8, to: 9, kind: 'condition', condition: { alternatives: 'Next' } },
      { id: 5, from: 9, to: 8, kind: 'condition', condition: { alternatives: 'Next' } },
      // The agent's transfer, when nobody answers, comes back to the bot.
      { id: 6, from: 10, to: 11, kind: 'condition', condition: { alternatives: 'call_transfer_failed' } },
      { id: 7, from: 11, to: 3, kind: 'condition', condition: { alternatives: 'Opening hours' } },
    ],
  });
  const connected = await connectNumber(app, projectId, fake, '+1 555 000 1000', {
    transferNumber: '+1 (555) 999-0000',
  });
  channelId = connected.id;
  callHook = connected.webhook.callHook;
  fake.setApplication({ callHook, statusHook: connected.webhook.statusHook });
});
afterAll(async () => {
  slow?.close();
  await app?.close();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const clientOf = (platformId: string) =>
  db.client.findFirstOrThrow({ where: { projectId, clientType: 13, platformId } });

describe('connecting', () => {
  it('checks the API key against the application and keeps the key and webhook secret sealed', async () => {
    const channel = await db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(channel).toMatchObject({ kind: 'telephony', clientType: 13, groupId: '15550001000' });
    const stored = JSON.stringify(channel.credentials);
    expect(stored).not.toContain(fake.account.apiKey);
    expect(stored).not.toContain(fake.account.webhookSecret);
    await expect(
      app.owner.channels.connect({
        kind: 'telephony',
        projectId,
        apiUrl: fake.url,
        accountSid: fake.account.accountSid,
        apiKey: 'wrong_key_123',
        applicationSid: fake.account.applicationSid,
        webhookSecret: fake.account.webhookSecret,
        callerNumber: '+1 555 000 2000',
      }),
    ).rejects.toThrow(/does not accept this API key.*401: Invalid token/);
  });
});

describe('voice settings', () => {
  it('change what the next call says with and where it transfers, for managers of the project', async () => {
    const updated = resultOf<typeof updateTelephonySettings>(
      await app.owner.channels.update({
        kind: 'telephony',
        projectId,
        channelId,
        voiceVendor: 'microsoft',
        language: 'de-DE',
        voice: 'de-DE-KatjaNeural',
        transferNumber: '+1 (555) 999-0000',
      }),
    )!;
    expect(updated.telephony?.settings).toEqual({
      vendor: 'microsoft',
      language: 'de-DE',
      voice: 'de-DE-KatjaNeural',
      transferNumber: '15559990000',
      transcribeTransfers: false,
      keepRecordings: false,
    });
    // The Channels tab lists them, with the webhook addresses to enter in jambonz, at any time.
    const listed = (await app.owner.channels.list({ projectId })).find((c) => c.id === channelId);
    expect(listed?.telephony).toEqual({
      settings: updated.telephony?.settings,
      webhook: { callHook, statusHook: `${callHook}/status` },
    });
    expect(callHook).toMatch(new RegExp(`/api/channels/telephony/${channelId}$`));
    expect(JSON.stringify(listed)).not.toContain(fake.account.apiKey);
    expect(JSON.stringify(listed)).not.toContain(fake.account.webhookSecret);
    const call = await fake.inboundCall('+1 415 555 0008');
    expect(call.gather?.say).toMatchObject({
      synthesizer: { vendor: 'microsoft', language: 'de-DE', voice: 'de-DE-KatjaNeural' },
    });
    await app.owner.channels.update({
      kind: 'telephony',
      projectId,
      channelId,
      voiceVendor: 'google',
      language: 'en-US',
      voice: '',
      transferNumber: '+1 (555) 999-0000',
    });
    // A wrong value is refused with its field named, for the form to show it under the field.
    const refused = await app.owner.channels
      .update({ kind: 'telephony', projectId, channelId, language: 'English', transferNumber: 'the boss' })
      .then(
        () => null,
        (e: { message: string; cause?: { issues?: { path: PropertyKey[] }[] } }) => e,
      );
    expect(refused?.message).toContain('language: must be a language code like en-US');
    expect(refused?.message).toContain('transferNumber: must be a phone number');
    expect(refused?.cause?.issues?.map((i) => i.path.join('.'))).toEqual(['language', 'transferNumber']);
    expect((await db.channel.findUniqueOrThrow({ where: { id: channelId } })).settings).toMatchObject({
      language: 'en-US',
    });
  });
});

describe('an incoming call', () => {
  let call: FakeCall;
  it('speaks the entry block with its buttons as a gather of digits and speech, then follows the digit pressed', async () => {
    call = await fake.inboundCall('+1 (415) 555-2671');
    expect(call.spoken).toEqual([
      'Welcome to Pizza.\nWhat would you like?\nPress 1 for Order a pizza.\nPress 2 for Opening hours.',
    ]);
    expect(call.gather).toMatchObject({ input: ['digits', 'speech'], numDigits: 1 });
    const client = await clientOf('14155552671');
    expect(client.groupId).toBe('');
    const first = await db.message.findFirstOrThrow({ where: { clientId: client.id, direction: 'in' } });
    expect(first).toMatchObject({ text: 'call_answered', messageFromOutside: MESSAGE_FROM.telephony });
    const state = await db.clientChannelState.findUniqueOrThrow({
      where: { clientId_key: { clientId: client.id, key: CALL_KEY } },
    });
    expect(JSON.parse(state.value)).toMatchObject({ sid: call.sid, status: 'live' });

    await fake.press(call, '1');
    expect(call.spoken.at(-1)).toBe('Which size? Say small or large.');
    // A block with arrows and no buttons waits for an answer: speech or digits ended by #.
    expect(call.gather).toMatchObject({ input: ['digits', 'speech'], finishOnKey: '#' });
    const texts = await db.message.findMany({
      where: { clientId: client.id, direction: 'in' },
      orderBy: { id: 'asc' },
      select: { text: true },
    });
    expect(texts.map((t) => t.text)).toEqual(['call_answered', 'Order a pizza']);
  });

  it('takes the same key pressed at two gathers in a row as two answers (a menu that loops)', async () => {
    const loop = await fake.inboundCall('+1 415 555 0199');
    await fake.speak(loop, 'loop');
    expect(loop.spoken.at(-1)).toContain('Round one.');
    await fake.press(loop, '1');
    expect(loop.spoken.at(-1)).toContain('Round two.');
    // The gateway posts the very same body for this press: it is a new turn all the same.
    await fake.press(loop, '1');
    expect(loop.spoken.at(-1)).toContain('Round one.');
    await fake.hangUp(loop);
  });

  it('takes a spoken answer as the message, and a red block hangs up', async () => {
    await fake.speak(call, 'large');
    expect(call.spoken.at(-1)).toBe('A large pizza is on its way. Goodbye.');
    expect(call.verbs.at(-1)).toEqual({ verb: 'hangup' });
    expect(call.hungUp).toBe(true);
    const client = await clientOf('14155552671');
    // The call's end reaches the bot as a telephony callback, and the call state is cleared.
    await waitFor(
      () =>
        db.message.findFirst({
          where: { clientId: client.id, text: 'call_ended', messageFromOutside: MESSAGE_FROM.telephony },
        }),
      'the call_ended callback',
    );
    await waitFor(
      async () => !(await db.clientChannelState.findFirst({ where: { clientId: client.id, key: CALL_KEY } })),
      'the call state cleared',
    );
  });

  it('says the option pressed by a number spoken too, and hangs up at the end of the flow', async () => {
    const other = await fake.inboundCall('+1 415 555 0002');
    await fake.speak(other, 'two');
    expect(other.spoken.at(-1)).toBe('We are open from nine to five.');
    expect(other.verbs.at(-1)).toEqual({ verb: 'hangup' });
  });

  it('asks the question again when the caller says nothing, once, then hangs up', async () => {
    const quiet = await fake.inboundCall('+1 415 555 0020');
    const menu = quiet.spoken[0];
    await fake.silence(quiet);
    // The menu again, with its options, not eight seconds of silence.
    expect(quiet.spoken).toEqual([menu, menu]);
    expect(quiet.gather).toMatchObject({ numDigits: 1, say: { text: menu } });
    // An answer after the repeat goes on as any answer, and the next question has its own repeat.
    await fake.press(quiet, '1');
    expect(quiet.spoken.at(-1)).toBe('Which size? Say small or large.');
    await fake.silence(quiet);
    expect(quiet.spoken.slice(-2)).toEqual([
      'Which size? Say small or large.',
      'Which size? Say small or large.',
    ]);
    expect(quiet.gather).toMatchObject({ finishOnKey: '#' });
    expect(quiet.hungUp).toBe(false);
    await fake.silence(quiet);
    expect(quiet.verbs.at(-1)).toEqual({ verb: 'hangup' });
    expect(quiet.hungUp).toBe(true);
  });

  it('transfers the call to the transfer number when the bot asks for an operator', async () => {
    const other = await fake.inboundCall('+1 415 555 0003');
    await fake.speak(other, 'operator');
    expect(other.spoken.at(-1)).toBe('Connecting you to an operator.');
    expect(other.dialed).toEqual(['15559990000']);
    const dial = other.verbs.find((v) => v.verb === 'dial');
    expect(dial).toMatchObject({ callerId: '15550001000' });
    // Not transcribed unless the channel says so.
    expect(dial).not.toHaveProperty('transcribe');
    expect(other.hungUp).toBe(false);
    await fake.endTransfer(other);
    expect(other.hungUp).toBe(true);
  });

  it("takes the operator's leg as part of the caller's call: no client for its number, no call event, nothing of a client there moves", async () => {
    const operatorCount = () =>
      db.client.count({ where: { projectId, clientType: 13, platformId: '15559990000' } });
    /** The call's end has reached the bot, and every update of the channel is processed. */
    const settled = async (from: string, count: number) => {
      const caller = await clientOf(from);
      await waitFor(
        async () =>
          (await db.message.count({ where: { clientId: caller.id, text: 'call_ended' } })) === count,
        'call_ended',
      );
      await waitFor(
        async () => (await db.channelUpdate.count({ where: { channelId, processedAt: null } })) === 0,
        'the updates processed',
      );
    };
    const call = await fake.inboundCall('+1 415 555 0021');
    await fake.speak(call, 'operator');
    // The dialed leg rang and was answered (its own status events, with parent_call_sid).
    await fake.endTransfer(call);
    await settled('14155550021', 1);
    expect(await operatorCount()).toBe(0);

    // The operator's number is a client of the project too: their conversation is untouched.
    const loaded = await app.callApi('load_clients', {
      clients: [{ platform_id: '15559990000', group_id: '', client_type: 13 }],
    });
    const operatorId = (loaded.body.clients as { client_id: number }[])[0].client_id;
    const again = await fake.inboundCall('+1 415 555 0021');
    expect(again.dialed).toEqual(['15559990000']);
    await fake.endTransfer(again);
    await settled('14155550021', 2);
    expect(await db.message.count({ where: { clientId: operatorId } })).toBe(0);
    expect(await db.clientChannelState.count({ where: { clientId: operatorId } })).toBe(0);
  });

  it('brings a transfer nobody answered back to the bot when the flow catches call_transfer_failed', async () => {
    fake.nextDial('busy');
    const call = await fake.inboundCall('+1 415 555 0022');
    await fake.speak(call, 'agent');
    expect(call.dialed).toEqual(['15559990000']);
    // Not hung up: the bot's block for the callback is spoken, and the bot answers again.
    expect(call.hungUp).toBe(false);
    expect(call.spoken.slice(-2)).toEqual([
      'Connecting you to an agent.',
      'Nobody is free right now (busy).\nPress 1 for Opening hours.',
    ]);
    const client = await clientOf('14155550022');
    expect(
      await db.message.findFirst({
        where: { clientId: client.id, text: 'call_transfer_failed', direction: 'in' },
      }),
    ).toMatchObject({ messageFromOutside: MESSAGE_FROM.telephony });
    expect(client.botPausedAt).toBeNull();
    // The conversation still waits for an operator in the inbox (until one clicks Done).
    expect(client.waitingSince).not.toBeNull();
    await fake.press(call, '1');
    expect(call.spoken.at(-1)).toBe('We are open from nine to five.');
    expect(call.dialed).toHaveLength(1);
  });

  it('keeps a transfer nobody answered for the inbox when the flow does not catch it: no hangup, no second dial', async () => {
    fake.nextDial('no-answer');
    const call = await fake.inboundCall('+1 415 555 0023');
    await fake.speak(call, 'operator');
    expect(call.dialed).toEqual(['15559990000']);
    expect(call.hungUp).toBe(false);
    expect(call.gather).toMatchObject({ finishOnKey: '#' });
    // What the caller says reaches the conversation (the bot stays paused), and is not dialed again.
    await fake.speak(call, 'Is anybody there?');
    const client = await clientOf('14155550023');
    expect(client.botPausedAt).not.toBeNull();
    expect(
      await db.message.findFirst({
        where: { clientId: client.id, text: 'Is anybody there?', direction: 'in' },
      }),
    ).not.toBeNull();
    expect(call.dialed).toHaveLength(1);
    expect(call.gather).toMatchObject({ finishOnKey: '#' });
    // Silence does not repeat the announcement of the transfer; the second silence hangs up.
    const said = call.spoken.length;
    await fake.silence(call);
    expect(call.spoken).toHaveLength(said);
    expect(call.spoken.at(-1)).toBe('Connecting you to an operator.');
    expect(call.hungUp).toBe(false);
    await fake.silence(call);
    expect(call.hungUp).toBe(true);
  });
});

describe('a slow turn', () => {
  it('is answered by a pause and a redirect, then spoken when the bot is done', async () => {
    const call = await fake.inboundCall('+1 415 555 0007');
    await fake.speak(call, 'slow');
    await waitFor(async () => call.spoken.includes('Thanks for waiting.'), 'the slow answer', 20_000);
    // The webhook stopped waiting: jambonz was told to pause (then to fetch what is pending); the
    // turn, done meanwhile, reached the call by live call control and was spoken after it.
    const kinds = call.verbs.map((v) => v.verb);
    expect(kinds.indexOf('pause')).toBeGreaterThan(0);
    expect(kinds.indexOf('pause')).toBeLessThan(
      call.verbs.findIndex((v) => v.text === 'Thanks for waiting.'),
    );
    expect(kinds.at(-1)).toBe('hangup');
  }, 30_000);
});

/** The channel's voice settings as they are, with `change` applied. */
async function setSettings(change: { transcribeTransfers?: boolean; keepRecordings?: boolean }) {
  await app.owner.channels.update({
    kind: 'telephony',
    projectId,
    channelId,
    voiceVendor: 'google',
    language: 'en-US',
    voice: '',
    transferNumber: '+1 (555) 999-0000',
    transcribeTransfers: false,
    keepRecordings: false,
    ...change,
  });
}

describe("a transferred call's transcript", () => {
  it('is stored in the history as it is said, caller in and operator out, without running the bot, and carried by call_ended', async () => {
    await setSettings({ transcribeTransfers: true });
    const call = await fake.inboundCall('+1 415 555 0010');
    await fake.speak(call, 'operator');
    expect(call.transfer).toMatchObject({
      verb: 'dial',
      transcribe: {
        transcriptionHook: `${callHook}/transcript`,
        recognizer: { vendor: 'google', language: 'en-US', separateRecognitionPerChannel: true },
      },
    });
    const client = await clientOf('14155550010');
    const before = await db.client.findUniqueOrThrow({ where: { id: client.id } });
    expect(await fake.say(call, 1, 'Hello, my pizza is late.')).toBe(200);
    expect(await fake.say(call, 2, 'Sorry, let me check', false)).toBe(200);
    expect(await fake.say(call, 2, 'Sorry, let me check your order.')).toBe(200);
    expect(await fake.say(call, 1, 'Thank you.')).toBe(200);
    const history = async () =>
      db.message.findMany({
        where: { clientId: client.id },
        orderBy: { id: 'asc' },
        select: { direction: true, text: true, messageFromOutside: true, blockId: true },
      });
    await waitFor(async () => (await history()).some((m) => m.text === 'Thank you.'), 'the transcript');
    const after = (await history()).slice(
      (await history()).findIndex((m) => m.text === 'Connecting you to an operator.') + 1,
    );
    expect(after).toEqual([
      {
        direction: 'in',
        text: 'Hello, my pizza is late.',
        messageFromOutside: MESSAGE_FROM.client,
        blockId: null,
      },
      {
        direction: 'out',
        text: 'Sorry, let me check your order.',
        messageFromOutside: MESSAGE_FROM.telephony,
        blockId: null,
      },
      { direction: 'in', text: 'Thank you.', messageFromOutside: MESSAGE_FROM.client, blockId: null },
    ]);
    // The bot did not run: the client is where the transfer left them, nothing was said.
    const now = await db.client.findUniqueOrThrow({ where: { id: client.id } });
    expect(now.currentBlockId).toBe(before.currentBlockId);
    // The caller's words are the conversation's latest activity, as for the inbox's order.
    expect(now.lastMessageAt?.getTime()).toBeGreaterThan(before.lastMessageAt?.getTime() ?? 0);
    expect(call.spoken.at(-1)).toBe('Connecting you to an operator.');

    await fake.endTransfer(call);
    expect(call.hungUp).toBe(true);
    await waitFor(
      () => db.message.findFirst({ where: { clientId: client.id, text: 'call_ended', direction: 'in' } }),
      'call_ended',
    );
    const transcript = await waitFor(
      () => db.dealVariable.findFirst({ where: { deal: { clientId: client.id }, name: 'call_transcript' } }),
      'call_transcript',
    );
    expect(transcript.value).toBe(
      'Caller: Hello, my pizza is late.\nOperator: Sorry, let me check your order.\nCaller: Thank you.',
    );
    // The call's lines went with it: the next call starts a transcript of its own.
    expect(
      await db.clientChannelState.findFirst({ where: { clientId: client.id, key: TRANSCRIPT_KEY } }),
    ).toBeNull();
    // The caller calls again (still waiting for an operator: transferred at once) and nobody speaks.
    const again = await fake.inboundCall('+1 415 555 0010');
    expect(again.transfer).toMatchObject({ verb: 'dial' });
    await fake.endTransfer(again);
    await waitFor(
      async () => (await db.message.count({ where: { clientId: client.id, text: 'call_ended' } })) === 2,
      'the second call_ended',
    );
    await waitFor(
      async () =>
        (
          await db.dealVariable.findFirst({
            where: { deal: { clientId: client.id }, name: 'call_transcript' },
          })
        )?.value === '',
      'the second call’s empty transcript',
    );
    await setSettings({});
  });

  it('refuses a transcript post with a bad signature, storing nothing', async () => {
    const body = {
      call_sid: 'bad-transcript-1',
      direction: 'inbound',
      from: '+14155550010',
      to: '15550001000',
      call_status: 'in-progress',
      speech: { is_final: true, channel_tag: 1, alternatives: [{ transcript: 'Forged words.' }] },
    };
    const wrong = `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`;
    for (const signature of [null, wrong]) {
      const answer = await fake.post(`${callHook}/transcript`, body, signature);
      expect(answer.status).toBe(401);
    }
    expect(
      await db.channelUpdate.count({ where: { channelId, externalId: { contains: 'bad-transcript-1' } } }),
    ).toBe(0);
    expect(await db.message.count({ where: { projectId, text: 'Forged words.' } })).toBe(0);
  });
});

describe("a call's recording", () => {
  it('is fetched once jambonz has it (404, then 200), kept as an audio file of the history, once even if the job runs twice', async () => {
    await startWorkers([telephonyRecordingJob] as never);
    await setSettings({ keepRecordings: true });
    const call = await fake.inboundCall('+1 415 555 0011');
    await fake.hangUp(call);
    const recordPath = `/v1/Accounts/${fake.account.accountSid}/RecentCalls/${call.sid}/record/${call.startedAt
      .toISOString()
      .slice(0, 10)
      .split('-')
      .join('/')}/mp3`;
    // The job asks before jambonz has uploaded it: not there yet, retried.
    await waitFor(
      async () => fake.requests.some((r) => r.path === recordPath && r.status === 404),
      'the first attempt',
      30_000,
    );
    const bytes = new Uint8Array([0xff, 0xfb, 0x90, 0x64, ...Array.from({ length: 64 }, (_, i) => i)]);
    fake.uploadRecording(call, bytes);
    const client = await clientOf('14155550011');
    const kept = await waitFor(
      () =>
        db.message.findFirst({
          where: { clientId: client.id, dedupeKey: `telephony-recording:${call.sid}` },
        }),
      'the recording in the history',
      30_000,
    );
    expect(kept).toMatchObject({ direction: 'in', messageFromOutside: MESSAGE_FROM.telephony });
    expect(kept.attachments).toEqual([{ type: 'audio', url: expect.stringContaining('/api/files/') }]);
    const file = await db.storedFile.findFirstOrThrow({ where: { clientId: client.id } });
    expect(file).toMatchObject({ mimeType: 'audio/mpeg', uploadKey: `recording:${call.sid}` });
    expect(new Uint8Array(file.bytes)).toEqual(bytes);
    expect(fake.requests.find((r) => r.path === recordPath && r.status === 200)).toBeDefined();

    // The job run again (a retry after a crash) keeps nothing more.
    await keepRecording(await getEngineDeps(), {
      channelId,
      clientId: client.id,
      callSid: call.sid,
      startedAt: call.startedAt.getTime(),
      giveUpAt: Date.now() + 60_000,
    });
    expect(await db.storedFile.count({ where: { clientId: client.id } })).toBe(1);
    expect(await db.message.count({ where: { clientId: client.id, dedupeKey: { not: null } } })).toBe(1);
    await setSettings({});
  }, 60_000);

  it('is given up, with nothing stored, once it is still not there after the wait', async () => {
    const call = await fake.inboundCall('+1 415 555 0012');
    await fake.hangUp(call);
    const client = await clientOf('14155550012');
    await keepRecording(await getEngineDeps(), {
      channelId,
      clientId: client.id,
      callSid: call.sid,
      startedAt: call.startedAt.getTime(),
      giveUpAt: Date.now() - 1,
    });
    expect(await db.storedFile.count({ where: { clientId: client.id } })).toBe(0);
  });
});

describe('signatures', () => {
  const body = (sid: string) => ({
    call_sid: sid,
    direction: 'inbound',
    from: '+14155550009',
    to: '15550001000',
    call_status: 'in-progress',
  });
  const stored = () => db.client.count({ where: { projectId, clientType: 13, platformId: '14155550009' } });

  it('refuses a call_hook with no signature, a wrong one or a stale one, storing nothing', async () => {
    const text = JSON.stringify(body('bad-1'));
    const wrong = `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`;
    const stale = fake.sign(text, Math.floor(Date.now() / 1000) - 3600);
    for (const signature of [null, wrong, stale]) {
      const answer = await fake.post(callHook, body('bad-1'), signature);
      expect(answer.status).toBe(401);
    }
    const gather = await fake.post(
      `${callHook}/gather`,
      { ...body('bad-1'), reason: 'dtmfDetected', digits: '1' },
      null,
    );
    expect(gather.status).toBe(401);
    const status = await fake.post(
      `${callHook}/status`,
      { ...body('bad-1'), call_status: 'no-answer' },
      wrong,
    );
    expect(status.status).toBe(401);
    expect(await stored()).toBe(0);
    expect(await db.channelUpdate.count({ where: { channelId, externalId: { contains: 'bad-1' } } })).toBe(0);
  });

  it('takes the same call signed', async () => {
    const answer = await fake.post(callHook, body('good-1'));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([expect.objectContaining({ verb: 'gather' })]);
    expect(await stored()).toBe(1);
  });
});

describe('a number disconnected while this process keeps its copy', () => {
  const caller = '+14155550071';
  /**
   * A number connected and called (this process keeps its channel), then disconnected elsewhere
   * (another instance of the app: only the row goes); a post to it, signed as jambonz signs.
   */
  async function goneNumber(number: string) {
    const connected = await connectNumber(app, projectId, fake, number);
    const call = { call_sid: `gone-${number}`, direction: 'inbound', from: caller, to: number };
    const post = (path: string, extra: object = {}) =>
      fake.post(`${connected.webhook.callHook}${path}`, { ...call, ...extra });
    expect((await post('')).status).toBe(200);
    await db.channel.delete({ where: { id: connected.id } });
    return post;
  }
  const messages = async () =>
    db.message.count({ where: { clientId: (await clientOf(caller.slice(1))).id } });

  // Answered before anything is stored, so checked against the channel as it is now: the
  // question is not said again, nor pending verbs given, for a number gone.
  it('does not say the question again on silence', async () => {
    const post = await goneNumber('15550003001');
    const before = await messages();
    expect((await post('/gather?turn=a', { reason: 'timeout' })).status).toBe(404);
    expect(await messages()).toBe(before);
  });

  it('gives a call no pending verbs', async () => {
    const post = await goneNumber('15550003002');
    expect((await post('/pending')).status).toBe(404);
  });

  // A store finds the channel gone (and the copy is dropped).
  it.each([
    ['an answer', '15550003003', '/gather?turn=b', { reason: 'dtmfDetected', digits: '1' }],
    ['a call', '15550003004', '', { call_sid: 'gone-again' }],
    ['a status', '15550003005', '/status', { call_status: 'completed' }],
  ])('stores no %s', async (_, number, path, extra) => {
    const post = await goneNumber(number);
    const before = await messages();
    expect((await post(path, extra)).status).toBe(404);
    expect(await messages()).toBe(before);
  });
});

describe('outbound calls', () => {
  let clientId: number;
  beforeAll(async () => {
    const loaded = await app.callApi('load_clients', {
      clients: [{ platform_id: '+1 (212) 555-0101', group_id: '', client_type: 13 }],
    });
    clientId = (loaded.body.clients as { client_id: number }[])[0].client_id;
  });

  const statusOf = (text: string) =>
    db.message.findFirst({
      where: { clientId, direction: 'out', text },
      select: { status: true, error: true },
    });

  it("places a call for the API's message; busy is a failed delivery, and the missed call reaches the bot and the webhook", async () => {
    await db.project.update({
      where: { id: projectId },
      data: { webhookUrl: 'https://hooks.example/blockbot' },
    });
    const sent = await app.callApi('message', { client_id: clientId, message: 'Your order is ready.' });
    expect(sent.status).toBe(200);
    const call = await waitFor(async () => fake.calls().find((c) => c.to === '12125550101'), 'the call');
    expect(fake.requests.find((r) => r.method === 'POST' && r.path.endsWith('/Calls'))).toMatchObject({
      status: 201,
      body: { from: '15550001000', application_sid: fake.account.applicationSid, tag: { clientId } },
    });
    // The call's placing is recorded once the gateway has answered it.
    await waitFor(async () => (await statusOf('Your order is ready.'))?.status === 'sent', 'sent');
    await fake.fail(call, 'busy');
    await waitFor(async () => (await statusOf('Your order is ready.'))?.status === 'failed', 'failed');
    expect((await statusOf('Your order is ready.'))?.error).toBe('the line was busy');
    const missed = await waitFor(
      () => db.message.findFirst({ where: { clientId, text: 'call_missed', direction: 'in' } }),
      'call_missed',
    );
    expect(missed.messageFromOutside).toBe(MESSAGE_FROM.telephony);
    // The callback goes to the project's webhook as every message does.
    expect(await db.outbox.count({ where: { kind: 'webhook', messageId: missed.id } })).toBe(1);
    await db.project.update({ where: { id: projectId }, data: { webhookUrl: null } });
    // The bot's answer to a missed call is not spoken to a call that is over, nor a new call placed.
    const sorry = await waitFor(
      () => db.message.findFirst({ where: { clientId, text: 'Sorry we missed you', direction: 'out' } }),
      'the answer',
    );
    expect(sorry.status).toBe('failed');
    expect(fake.calls().filter((c) => c.to === '12125550101')).toHaveLength(1);
  });

  it('an answered call speaks the message and is a delivered one', async () => {
    await app.callApi('message', { client_id: clientId, message: 'Your pizza is at the door.' });
    const call = await waitFor(
      async () => fake.calls().find((c) => c.to === '12125550101' && c.status === 'queued'),
      'the second call',
    );
    await fake.answer(call);
    expect(call.spoken).toEqual(['Your pizza is at the door.']);
    await waitFor(
      async () => (await statusOf('Your pizza is at the door.'))?.status === 'delivered',
      'delivered',
    );
  });

  it('a message during a live call not answered by this turn redirects the call to fetch it', async () => {
    const call = await fake.inboundCall('+1 415 555 0004');
    const client = await clientOf('14155550004');
    await app.callApi('message', { client_id: client.id, message: 'One more thing.' });
    await waitFor(async () => call.spoken.includes('One more thing.'), 'the redirect');
    expect(fake.requests.find((r) => r.method === 'PUT')).toMatchObject({
      status: 202,
      body: { call_hook: { url: `${callHook}/pending` } },
    });
  });

  it('a turn run where no webhook waits for it (the sweeper after a crash) reaches the call by redirect', async () => {
    const call = await fake.inboundCall('+1 415 555 0006');
    const update = {
      type: 'answer' as const,
      key: `answer:${call.sid}:swept`,
      callSid: call.sid,
      number: call.from,
      text: 'Order a pizza',
    };
    await storeUpdates(await getEngineDeps(), telephonyInbound, channelId, [
      { externalId: update.key, order: 1, chat: '14155550006', payload: update, parsed: update },
    ]);
    await waitFor(async () => call.spoken.includes('Which size? Say small or large.'), 'the redirected turn');
    expect(call.gather).toMatchObject({ finishOnKey: '#' });
  });

  it('a broadcast calls each telephony recipient, each message with its own call’s outcome', async () => {
    await startWorkers([broadcastSendJob, broadcastDispatchJob] as never);
    const loaded = await app.callApi('load_clients', {
      clients: ['12125550301', '12125550302'].map((platform_id) => ({
        platform_id,
        group_id: '',
        client_type: 13,
      })),
    });
    const [a, b] = (loaded.body.clients as { client_id: number }[]).map((c) => c.client_id);
    const started = await app.callApi('broadcast', {
      message: 'We are open on Sunday.',
      clients: [a, b],
      shift: 0,
    });
    expect(started.body).toMatchObject({ recipients: 2 });
    const callTo = (number: string) =>
      waitFor(async () => fake.calls().find((c) => c.to === number), `the call to ${number}`);
    await fake.answer(await callTo('12125550301'));
    await fake.fail(await callTo('12125550302'), 'no-answer');
    const statusOf = (clientId: number) =>
      db.message.findFirst({ where: { clientId, direction: 'out', text: 'We are open on Sunday.' } });
    await waitFor(async () => (await statusOf(a))?.status === 'delivered', 'delivered to a');
    await waitFor(async () => (await statusOf(b))?.status === 'failed', 'failed to b');
    expect((await statusOf(b))?.error).toBe('the call was not answered');
  });

  describe('a call jambonz could not place at once', () => {
    const callClient = async (number: string, text: string) => {
      const loaded = await app.callApi('load_clients', {
        clients: [{ platform_id: number, group_id: '', client_type: 13 }],
      });
      const id = (loaded.body.clients as { client_id: number }[])[0].client_id;
      await app.callApi('message', { client_id: id, message: text });
      return id;
    };
    const messageOf = (clientId: number) =>
      db.message.findFirstOrThrow({
        // The message sent (the bot's answer to call_ended comes after it).
        where: { clientId, direction: 'out' },
        orderBy: { id: 'asc' },
        select: { status: true, error: true, externalId: true },
      });
    /** Waits for the message's send to be held with an error naming `reason`. */
    const heldWith = (clientId: number, reason: string) =>
      waitFor(async () => {
        const message = await messageOf(clientId);
        const row = await db.outbox.findFirst({ where: { clientId, kind: 'send' } });
        return message.status === 'queued' && message.error?.includes(reason) && row?.state === 'held';
      }, `held after ${reason}`);
    /** The held sends fall due (as they would at their time) and the outbox tries them. */
    const tryAgain = async () => {
      await releaseHeldSends(db, { projectId, clientType: 13 });
      await sweepOutbox(await getEngineDeps());
    };
    const placings = (number: string) =>
      fake.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path.endsWith('/Calls') &&
          (r.body as { to?: { number?: string } }).to?.number === number,
      );

    it('is held when jambonz placed nothing (480, then a rate limit), and placed once at a later try', async () => {
      fake.nextCallAnswers('no-feature-server', 'rate-limited');
      const id = await callClient('12125550401', 'Your table is ready.');
      await heldWith(id, '480: no available feature servers at this time');
      expect(fake.calls().filter((c) => c.to === '12125550401')).toEqual([]);
      await tryAgain();
      await heldWith(id, '429: Too many requests');
      await tryAgain();
      await waitFor(async () => (await messageOf(id)).status === 'sent', 'placed');
      const calls = fake.calls().filter((c) => c.to === '12125550401');
      expect(calls).toHaveLength(1);
      expect(placings('12125550401').map((r) => r.status)).toEqual([480, 429, 201]);
      await fake.answer(calls[0]);
      expect(calls[0].spoken).toEqual(['Your table is ready.']);
      await waitFor(async () => (await messageOf(id)).status === 'delivered', 'delivered');
    });

    it('after a 500 that placed nothing, finds no call among the account’s calls and places it once', async () => {
      fake.nextCallAnswers('error');
      const id = await callClient('12125550402', 'Your order has shipped.');
      await heldWith(id, '500: Internal Server Error');
      await tryAgain();
      await waitFor(async () => (await messageOf(id)).status === 'sent', 'placed');
      expect(fake.calls().filter((c) => c.to === '12125550402')).toHaveLength(1);
      expect(placings('12125550402').map((r) => r.status)).toEqual([500, 201]);
    });

    it('after a 500 that placed the call all the same, takes that call and never places another', async () => {
      fake.nextCallAnswers('error-after-placing');
      const id = await callClient('12125550403', 'Your courier is outside.');
      await heldWith(id, '500: Internal Server Error');
      const calls = () => fake.calls().filter((c) => c.to === '12125550403');
      // jambonz placed it, and nobody was told its sid.
      expect(calls()).toHaveLength(1);
      await tryAgain();
      await waitFor(async () => (await messageOf(id)).status === 'sent', 'taken');
      expect(await messageOf(id)).toMatchObject({ externalId: calls()[0].sid, error: null });
      expect(calls()).toHaveLength(1);
      expect(placings('12125550403')).toHaveLength(1);
      await fake.answer(calls()[0]);
      expect(calls()[0].spoken).toEqual(['Your courier is outside.']);
      await waitFor(async () => (await messageOf(id)).status === 'delivered', 'delivered');
    });

    it('is failed at once, never held nor placed again, when jambonz refuses it (a key revoked: 401)', async () => {
      const key = fake.account.apiKey;
      fake.account.apiKey = 'key_revoked';
      try {
        const id = await callClient('12125550405', 'Your table is ready.');
        await waitFor(async () => (await messageOf(id)).status === 'failed', 'failed');
        expect((await messageOf(id)).error).toContain('Invalid token');
        expect(await db.outbox.findFirst({ where: { clientId: id, kind: 'send' } })).toMatchObject({
          state: 'done',
        });
        await tryAgain();
        expect(placings('12125550405').map((r) => r.status)).toEqual([401]);
        expect(fake.calls().filter((c) => c.to === '12125550405')).toEqual([]);
      } finally {
        fake.account.apiKey = key;
      }
    });

    it('after a lost connection, a call answered before the next try waits, and hears the message once that try finds it', async () => {
      fake.nextCallAnswers('lost-after-placing');
      const id = await callClient('12125550404', 'Your parcel is at the door.');
      await heldWith(id, 'jambonz did not place the call');
      const [call] = fake.calls().filter((c) => c.to === '12125550404');
      // The callee answers while the message waits for its next try: the call is told to wait.
      const answered = fake.answer(call);
      await waitFor(async () => call.verbs.some((v) => v.verb === 'pause'), 'the call waiting');
      await tryAgain();
      await answered;
      await waitFor(async () => call.spoken.includes('Your parcel is at the door.'), 'the message spoken');
      expect(call.spoken).toEqual(['Your parcel is at the door.']);
      expect(await messageOf(id)).toMatchObject({ externalId: call.sid });
      expect(fake.calls().filter((c) => c.to === '12125550404')).toHaveLength(1);
      expect(placings('12125550404')).toHaveLength(1);
    });
  });
});

describe('finding a telephony client by phone', () => {
  it('answers callback with client_phone in any format for a client loaded with client_type 13', async () => {
    const loaded = await app.callApi('load_clients', {
      clients: [{ platform_id: '+44 20 7946 0111', group_id: '', client_type: 13 }],
    });
    const id = (loaded.body.clients as { client_id: number }[])[0].client_id;
    const answer = await app.callApi('callback', { client_phone: '0044 (20) 7946-0111', message: 'ping' });
    expect(answer.status).toBe(200);
    expect(
      await db.message.findFirst({ where: { clientId: id, text: 'ping', direction: 'in' } }),
    ).not.toBeNull();
  });

  it('answers find_client_id_by_phone and the universal webhook’s value_phone in any format', async () => {
    const loaded = await app.callApi('load_clients', {
      clients: [{ platform_id: '12125550777', group_id: '', client_type: 13 }],
    });
    const id = (loaded.body.clients as { client_id: number }[])[0].client_id;
    for (const phone of ['+1 (212) 555-0777', '0012125550777', '12125550777']) {
      const res = await fetch(
        `${app.apiUrl}/api/${app.apiKey}/find_client_id_by_phone?${new URLSearchParams({ phone })}`,
      );
      expect(await res.json()).toMatchObject({ client_id: id });
    }
    const located = await app.callApi('get_variables', { value_phone: 'tel', tel: '+1 212 555 0777' });
    expect(located.status).toBe(200);
    const byId = await app.callApi('get_variables', { client_id: id });
    expect(located.body).toEqual(byId.body);
  });
});
