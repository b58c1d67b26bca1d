import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { broadcastDispatchJob, broadcastSendJob } from '@/server/broadcasts/broadcast-jobs';
import type { PrismaClient } from '@/server/db/client-type';
import { startWorkers } from '@/server/jobs/jobs';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { type ChatappTestApp, useChatappTestApp } from '../chatapp/testing/chatapp-test-app';
import { connectNumber } from './testing/connect-number';
import { type FakeJambonz, startFakeJambonz } from './testing/fake-jambonz';

/**
 * A project with two telephony channels, each its own jambonz gateway (two fakes, two
 * accounts, two webhook secrets): a caller's call is answered in the voice of the channel
 * they called, and the bot's later messages to them (the API's `message`, a broadcast) place
 * the outbound call through that channel's gateway, from its number, not the first connected.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-telephony-two-'));
let app: ChatappTestApp;
let db: PrismaClient;
let projectId: number;
let first: FakeJambonz;
let second: FakeJambonz;

const FIRST_NUMBER = '15550001000';
const SECOND_NUMBER = '15550002000';

async function connect(fake: FakeJambonz, callerNumber: string, voice: object) {
  const connected = await connectNumber(app, projectId, fake, callerNumber, voice);
  fake.setApplication({ callHook: connected.webhook.callHook, statusHook: connected.webhook.statusHook });
  return connected.id;
}

beforeAll(async () => {
  [first, second] = await Promise.all([startFakeJambonz(), startFakeJambonz()]);
  app = await useChatappTestApp(tmp, {});
  ({ db, projectId } = app);
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Welcome.',
        trigger: { alternatives: '' },
        buttons: [{ type: 'reply', text: 'Leave a message' }],
      },
      { id: 2, kind: 'state', text: 'Noted. Goodbye.' },
      {
        id: 3,
        kind: 'start',
        text: '',
        trigger: { alternatives: 'notify' },
        formula: "message(target, 'Your table is ready.')",
      },
    ],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'Leave a message' } }],
  });
  await connect(first, '+1 555 000 1000', {});
  await connect(second, '+1 555 000 2000', { voiceVendor: 'microsoft', language: 'de-DE' });
  await startWorkers([broadcastSendJob, broadcastDispatchJob] as never);
});
afterAll(async () => {
  await app?.close();
  await Promise.all([first?.close(), second?.close()]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const clientOf = (platformId: string) =>
  db.client.findFirstOrThrow({ where: { projectId, clientType: 13, platformId } });
const outbound = (fake: FakeJambonz, to: string) =>
  fake.calls().filter((c) => c.direction === 'outbound' && c.to === to);
const statusOf = (clientId: number, text: string) =>
  db.message.findFirst({ where: { clientId, direction: 'out', text }, select: { status: true } });

/** A caller calls the second channel's number, leaves a message and hangs up. */
async function callSecond(from: string) {
  const call = await second.inboundCall(from, SECOND_NUMBER);
  expect(call.gather?.say).toMatchObject({ synthesizer: { vendor: 'microsoft', language: 'de-DE' } });
  // The gather's actionHook is the second channel's: its gateway's signed answer is taken.
  await second.press(call, '1');
  expect(call.spoken.at(-1)).toBe('Noted. Goodbye.');
  expect(call.hungUp).toBe(true);
  const client = await clientOf(from.replace(/\D/g, ''));
  await waitFor(
    () => db.message.findFirst({ where: { clientId: client.id, text: 'call_ended', direction: 'in' } }),
    'the call_ended callback',
  );
  return client;
}

describe('a project with two telephony channels', () => {
  it("calls a client back through the channel they called, in that channel's voice", async () => {
    const client = await callSecond('+1 415 555 0100');
    await app.callApi('message', { client_id: client.id, message: 'We called you back.' });
    const call = await waitFor(
      async () => outbound(second, '14155550100')[0],
      'the call through the second gateway',
    );
    expect(call.from).toBe(SECOND_NUMBER);
    expect(second.requests.find((r) => r.method === 'POST' && r.path.endsWith('/Calls'))).toMatchObject({
      status: 201,
      body: { application_sid: second.account.applicationSid, from: SECOND_NUMBER },
    });
    expect(first.requests.filter((r) => r.method === 'POST')).toEqual([]);
    await second.answer(call);
    expect(call.spoken).toEqual(['We called you back.']);
    expect(call.verbs[0]).toMatchObject({ synthesizer: { vendor: 'microsoft', language: 'de-DE' } });
    await waitFor(
      async () => (await statusOf(client.id, 'We called you back.'))?.status === 'delivered',
      'delivered',
    );
  });

  it('places a broadcast’s calls through each recipient’s own channel', async () => {
    const caller = await callSecond('+1 415 555 0101');
    const loaded = await app.callApi('load_clients', {
      clients: [{ platform_id: '+1 212 555 0102', group_id: '', client_type: 13 }],
    });
    const never = (loaded.body.clients as { client_id: number }[])[0].client_id;
    const started = await app.callApi('broadcast', {
      message: 'We are open on Sunday.',
      clients: [caller.id, never],
      shift: 0,
    });
    expect(started.body).toMatchObject({ recipients: 2 });
    const toCaller = await waitFor(
      async () => outbound(second, '14155550101')[0],
      'the call to the caller, through the second gateway',
    );
    // A client who never called or was called has no channel yet: the first connected calls.
    const toNever = await waitFor(
      async () => outbound(first, '12125550102')[0],
      'the call to the loaded client, through the first gateway',
    );
    expect(toCaller.from).toBe(SECOND_NUMBER);
    expect(toNever.from).toBe(FIRST_NUMBER);
    expect(outbound(first, '14155550101')).toEqual([]);
    expect(outbound(second, '12125550102')).toEqual([]);
    await second.answer(toCaller);
    await first.answer(toNever);
    await waitFor(
      async () => (await statusOf(caller.id, 'We are open on Sunday.'))?.status === 'delivered',
      'delivered to the caller',
    );
    await waitFor(
      async () => (await statusOf(never, 'We are open on Sunday.'))?.status === 'delivered',
      'delivered to the loaded client',
    );
  });

  it("places a formula's message() to a caller through their channel", async () => {
    const caller = await callSecond('+1 415 555 0103');
    const loaded = await app.callApi('load_clients', {
      clients: [{ platform_id: '+1 212 555 0104', group_id: '', client_type: 13 }],
    });
    const sender = (loaded.body.clients as { client_id: number }[])[0].client_id;
    await app.callApi('save_variables', { client_id: sender, variables: { target: String(caller.id) } });
    await app.callApi('callback', { client_id: sender, message: 'notify' });
    const call = await waitFor(
      async () => outbound(second, '14155550103')[0],
      'the call to the caller, through the second gateway',
    );
    expect(call.from).toBe(SECOND_NUMBER);
    expect(outbound(first, '14155550103')).toEqual([]);
    await second.answer(call);
    expect(call.spoken).toEqual(['Your table is ready.']);
  });
});
