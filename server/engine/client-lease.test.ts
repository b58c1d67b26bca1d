import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LeaseLostError } from './event-writes';
import { EngineHarness } from './testing/engine-harness';

let h: EngineHarness;
let slow: http.Server;
let slowUrl: string;
const held: { arrived?: () => void; answer?: () => void } = {};

beforeAll(async () => {
  h = await EngineHarness.create();
  // Answers only when the test lets it.
  slow = http.createServer((_req, res) => {
    held.answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('late');
    held.arrived?.();
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hold`;
});
afterAll(async () => {
  slow?.closeAllConnections();
  await new Promise((resolve) => slow?.close(resolve));
  await h?.close();
});

const echoBot = {
  blocks: [{ id: 1, kind: 'start' as const, text: 'Got #{question}', trigger: { alternatives: '' } }],
  arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' as const }],
};

const setLease = (clientId: number, token: string | null, until: Date | null) =>
  h.tdb.prisma.client.update({ where: { id: clientId }, data: { leaseToken: token, leaseUntil: until } });

it("waits while another process's event holds the client, and goes on once it is released", async () => {
  const bot = await h.bot(echoBot);
  await bot.say('hello');
  const { id } = await bot.clientRow();
  await setLease(id, 'other-process', new Date(Date.now() + 3_600_000));
  let done = false;
  const reply = bot.say('second').finally(() => {
    done = true;
  });
  // A statement of the test's own goes through while the event waits: it holds no connection.
  expect(await bot.transcript()).toEqual(['> hello', '< Got hello']);
  expect(done).toBe(false);
  await setLease(id, null, null);
  expect(await reply).toEqual(['Got second']);
  expect(await bot.clientRow()).toMatchObject({ leaseToken: null, leaseUntil: null });
});

it('takes over a lease whose holder died (expired), and releases it with its final write', async () => {
  const bot = await h.bot(echoBot);
  await bot.say('hello');
  const { id } = await bot.clientRow();
  await setLease(id, 'dead-process', new Date(Date.now() - 1000));
  expect(await bot.say('again')).toEqual(['Got again']);
  expect(await bot.clientRow()).toMatchObject({ leaseToken: null, leaseUntil: null });
});

it('an event that lost its lease meanwhile stores nothing and says why', async () => {
  const bot = await h.bot({
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Answer #{custom_answer}',
        trigger: { alternatives: '' },
        formula: "x = 'set'",
        request: { type: 'GET', url: slowUrl },
      },
    ],
    arrows: [],
  });
  const arrived = new Promise<void>((resolve) => {
    held.arrived = resolve;
  });
  const event = bot.say('hi');
  await arrived;
  // As if the lease had expired and another event had taken the client.
  const { id } = await bot.clientRow();
  await setLease(id, 'someone-else', new Date(Date.now() + 3_600_000));
  held.answer?.();
  await expect(event).rejects.toBeInstanceOf(LeaseLostError);
  expect(await bot.transcript()).toEqual([]);
  expect((await bot.variables()).deal).toEqual({});
  expect(await bot.clientRow()).toMatchObject({ leaseToken: 'someone-else', currentBlockId: null });
});

it('hands the lease straight to the next event of the client queued in this process, and the last one releases it', async () => {
  const bot = await h.bot({
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Got #{question}',
        trigger: { alternatives: '' },
        request: { type: 'GET', url: slowUrl },
      },
    ],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  const nextRequest = () =>
    new Promise<void>((resolve) => {
      held.arrived = resolve;
    });
  let arrived = nextRequest();
  const first = bot.say('one');
  await arrived;
  const { leaseToken } = await bot.clientRow();
  expect(leaseToken).toEqual(expect.any(String));
  // Queued behind the first here: the first's final write keeps the lease for it.
  const second = bot.say('two');
  arrived = nextRequest();
  held.answer?.();
  expect(await first).toEqual(['Got one']);
  await arrived;
  // The second runs under the same lease: it was never free for another process to take.
  expect(await bot.clientRow()).toMatchObject({ leaseToken, currentBlockId: 1 });
  held.answer?.();
  expect(await second).toEqual(['Got two']);
  expect(await bot.transcript()).toEqual(['> one', '< Got one', '> two', '< Got two']);
  expect(await bot.clientRow()).toMatchObject({ leaseToken: null, leaseUntil: null });
});
