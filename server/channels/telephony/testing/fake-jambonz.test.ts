import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jambonzApi } from '../rest-api';
import { type FakeJambonz, startFakeJambonz } from './fake-jambonz';

/** The fake speaks jambonz's REST protocol, as the channel's client reads it. */

let fake: FakeJambonz;
beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeJambonz();
});
afterAll(() => fake?.close());

it('answers a wrong key 401, an unknown application or account 404, with their {msg}', async () => {
  const wrong = await jambonzApi(fake.url, 'nope_nope_nope').get(
    `Applications/${fake.account.applicationSid}`,
  );
  expect(wrong).toMatchObject({
    ok: false,
    status: 401,
    reason: 'unauthorized',
    description: 'HTTP 401: Invalid token',
  });
  const api = jambonzApi(`${fake.url}/`, fake.account.apiKey);
  expect(await api.get(`Applications/${crypto.randomUUID()}`)).toMatchObject({
    ok: false,
    reason: 'not_found',
    description: 'HTTP 404: application not found',
  });
  expect(await api.post('Accounts/other/Calls', {})).toMatchObject({ ok: false, status: 404 });
  expect(await api.get(`Applications/${fake.account.applicationSid}`)).toMatchObject({
    ok: true,
    result: { account_sid: fake.account.accountSid, name: 'Voice bot' },
  });
});

it('creates a call 201 with its sid, refuses a bad one 400 or 422, and rate limits 429', async () => {
  const api = jambonzApi(fake.url, fake.account.apiKey);
  const calls = `Accounts/${fake.account.accountSid}/Calls`;
  const good = {
    application_sid: fake.account.applicationSid,
    from: '15550001000',
    to: { type: 'phone', number: '12125550101' },
  };
  const placed = await api.post<{ sid: string }>(calls, good);
  expect(placed).toMatchObject({ ok: true });
  expect(fake.calls().find((c) => c.sid === (placed.ok ? placed.result.sid : ''))).toMatchObject({
    direction: 'outbound',
    status: 'queued',
  });
  expect(await api.post(calls, { ...good, to: '12125550101' })).toMatchObject({
    status: 400,
    reason: 'refused',
  });
  expect(await api.post(calls, { ...good, application_sid: undefined })).toMatchObject({
    status: 422,
    reason: 'refused',
  });
  fake.limitNext(1);
  expect(await api.post(calls, good)).toMatchObject({
    status: 429,
    reason: 'unavailable',
    description: 'HTTP 429: Too many requests, please try again later.',
    retryAfterMs: 1000,
  });
  expect(await api.put(`${calls}/${crypto.randomUUID()}`, { call_status: 'completed' })).toMatchObject({
    status: 404,
    reason: 'not_found',
  });
});

it('answers POST /Calls 480 or 500 with nothing placed, 500 or no answer with the call placed, and lists the account’s calls without their tag', async () => {
  const api = jambonzApi(fake.url, fake.account.apiKey);
  const calls = `Accounts/${fake.account.accountSid}/Calls`;
  const to = { type: 'phone', number: '12125550177' };
  const good = {
    application_sid: fake.account.applicationSid,
    from: '15550001000',
    to,
    tag: { clientId: 7 },
  };
  const placedTo = () => fake.calls().filter((c) => c.to === to.number);
  fake.nextCallAnswers('no-feature-server', 'error', 'error-after-placing', 'lost-after-placing');
  expect(await api.post(calls, good)).toMatchObject({
    status: 480,
    reason: 'unavailable',
    description: 'HTTP 480: no available feature servers at this time',
  });
  expect(await api.post(calls, good)).toMatchObject({
    status: 500,
    description: 'HTTP 500: Internal Server Error',
  });
  expect(placedTo()).toHaveLength(0);
  expect(await api.post(calls, good)).toMatchObject({ status: 500, reason: 'unavailable' });
  expect(await api.post(calls, good)).toMatchObject({ status: 0, reason: 'unavailable' });
  expect(placedTo()).toHaveLength(2);
  const listed = await api.get<Record<string, unknown>[]>(`${calls}?direction=outbound&to=${to.number}`);
  expect(listed.ok && listed.result.map((c) => c.call_sid).sort()).toEqual(
    placedTo()
      .map((c) => c.sid)
      .sort(),
  );
  expect(listed.ok && listed.result[0]).toMatchObject({
    direction: 'outbound',
    from: '15550001000',
    call_status: 'queued',
  });
  expect(listed.ok && listed.result[0]).not.toHaveProperty('customerData');
  const none = await api.get<unknown[]>(`${calls}?direction=inbound&to=${to.number}`);
  expect(none).toMatchObject({ ok: true, result: [] });
});

it('serves a recording from the account’s storage once uploaded: 404 before, audio/mpeg after, 401 to a wrong key', async () => {
  const api = jambonzApi(fake.url, fake.account.apiKey);
  const placed = await api.post<{ sid: string }>(`Accounts/${fake.account.accountSid}/Calls`, {
    application_sid: fake.account.applicationSid,
    from: '15550001000',
    to: { type: 'phone', number: '12125550102' },
  });
  const call = fake.calls().find((c) => c.sid === (placed.ok ? placed.result.sid : ''));
  if (!call) throw new Error('no call placed');
  const day = call.startedAt.toISOString().slice(0, 10).split('-').join('/');
  const path = `Accounts/${fake.account.accountSid}/RecentCalls/${call.sid}/record/${day}/mp3`;
  expect(await api.download(path, 1024)).toMatchObject({
    ok: false,
    status: 404,
    reason: 'not_found',
    description: 'HTTP 404: recording not found',
  });
  fake.uploadRecording(call, new Uint8Array([1, 2, 3]));
  expect(await api.download(path, 1024)).toEqual({
    ok: true,
    result: { bytes: new Uint8Array([1, 2, 3]), contentType: 'audio/mpeg' },
  });
  // Another day is another recording: none.
  expect(await api.download(path.replace(day, '1999/01/01'), 1024)).toMatchObject({ status: 404 });
  expect(await jambonzApi(fake.url, 'nope_nope_nope').download(path, 1024)).toMatchObject({
    status: 401,
    reason: 'unauthorized',
  });
});

it('posts a call’s status changes with the call’s fields only: no recording or transcript, as jambonz', async () => {
  const posted: Record<string, unknown>[] = [];
  const app = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      if (req.url === '/status') posted.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        req.url === '/status' ? '{}' : JSON.stringify([{ verb: 'say', text: 'Bye.' }, { verb: 'hangup' }]),
      );
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  fake.setApplication({ callHook: `${base}/call`, statusHook: `${base}/status` });
  const call = await fake.inboundCall('+14155550123');
  app.close();
  expect(call.spoken).toEqual(['Bye.']);
  expect(posted).toHaveLength(1);
  expect(posted[0]).toMatchObject({ call_sid: call.sid, call_status: 'completed' });
  expect(posted[0]).not.toHaveProperty('recording_url');
  expect(posted[0]).not.toHaveProperty('transcript');
});
