import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChannelAdapter, DeliveryResult, SendContext } from '@/server/channels/channel-adapter';
import { registerChannel } from '@/server/channels/registry';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { sqlTransaction } from '@/server/db/raw-sql';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { waitFor } from '@/server/testing/wait-for';
import { getEngineDeps } from './engine';
import type { EngineDeps } from './engine-deps';
import { handleEvent } from './handle-event';
import { releaseHeldSends } from './held-sends';
import { sweepOutbox } from './outbox';
import { claimExpired, releaseHeld } from './store/outbox';

/**
 * Held sends (DeliveryResult.retryAt): a message its channel could not take for now stays
 * queued, durably, and is tried again later from the outbox, by any process; a client's later
 * messages wait behind it and go after it, in order; the channel's return sends them at once.
 */

const CLIENT_TYPE = 97;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-held-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let deps: EngineDeps;
let projectId: number;

/** What the channel answers next: `hold` keeps a send for an hour, `deliver` takes it. */
let mode: 'hold' | 'deliver' | 'hold-briefly' = 'hold';
const tries: { text: string; attempt?: number; queuedAt?: Date }[] = [];
const channel: ChannelAdapter = {
  clientType: CLIENT_TYPE,
  holdsSends: true,
  async send(_client, message, context: SendContext): Promise<DeliveryResult> {
    tries.push({ text: message.text, attempt: context.attempt, queuedAt: context.queuedAt });
    if (mode === 'deliver') return { delivered: true, externalId: `ext-${message.text}` };
    const retryAt = new Date(Date.now() + (mode === 'hold' ? 3600_000 : 0));
    return { delivered: false, error: 'The session is not connected', retryAt };
  },
  async call() {
    throw new Error('none');
  },
};

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  deps = await getEngineDeps();
  projectId = (await createProject(db, { name: 'held', plan: 'business' })).id;
  registerChannel(channel);
});
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let nextClient = 1;
async function client() {
  return db.client.create({
    data: { projectId, clientType: CLIENT_TYPE, groupId: 'number-1', platformId: String(nextClient++) },
  });
}
const send = (clientId: number, text: string) =>
  handleEvent(deps, projectId, { clientId }, { type: 'send', text, messageFromOutside: 1 });
const history = (clientId: number) =>
  db.message.findMany({
    where: { clientId },
    orderBy: { id: 'asc' },
    select: { text: true, status: true, delivered: true, error: true, externalId: true },
  });
const outbox = (clientId: number) =>
  db.outbox.findMany({ where: { clientId, kind: 'send' }, orderBy: { id: 'asc' }, select: { state: true } });

it('keeps a held message queued, holds the later ones behind it untried, and sends them all in order once the channel is back', async () => {
  const { id } = await client();
  mode = 'hold';
  tries.length = 0;
  await send(id, 'first');
  await send(id, 'second');
  await send(id, 'third');

  // Only the first was tried: the others wait behind it.
  expect(tries.map((t) => t.text)).toEqual(['first']);
  expect(tries[0].attempt).toBe(0);
  const waiting = {
    status: 'queued',
    delivered: false,
    error: 'The session is not connected',
    externalId: null,
  };
  expect(await history(id)).toEqual([
    { text: 'first', ...waiting },
    { text: 'second', ...waiting },
    { text: 'third', ...waiting },
  ]);
  expect(await outbox(id)).toEqual([{ state: 'held' }, { state: 'held' }, { state: 'held' }]);
  // Not due for an hour: the sweeper leaves them.
  expect(await sweepOutbox(deps)).toBe(0);

  mode = 'deliver';
  expect(await releaseHeldSends(db, { projectId, clientType: CLIENT_TYPE, groupId: 'number-1' })).toBe(3);
  await sweepOutbox(deps);
  expect(tries.map((t) => t.text)).toEqual(['first', 'first', 'second', 'third']);
  // A try taken from the outbox says how often the row was taken, and when it was written.
  expect(tries[1].attempt).toBe(1);
  expect(tries[1].queuedAt).toBeInstanceOf(Date);
  expect(await history(id)).toEqual(
    ['first', 'second', 'third'].map((text) => ({
      text,
      status: 'sent',
      delivered: true,
      error: null,
      externalId: `ext-${text}`,
    })),
  );
  expect(await outbox(id)).toEqual([{ state: 'done' }, { state: 'done' }, { state: 'done' }]);
});

it('tries a held message again at the time the channel gave, from the sweeper', async () => {
  const { id } = await client();
  mode = 'hold-briefly';
  tries.length = 0;
  await send(id, 'soon');
  expect(await outbox(id)).toEqual([{ state: 'held' }]);
  mode = 'deliver';
  // Due a second later at the earliest (a past time is not taken over and over).
  await waitFor(async () => (await sweepOutbox(deps)) > 0, 'the held send to fall due');
  expect(tries.map((t) => t.text)).toEqual(['soon', 'soon']);
  expect(await history(id)).toMatchObject([{ text: 'soon', status: 'sent', error: null }]);
});

it("releases only the channel's group it names, and never a held send being tried again", async () => {
  const { id } = await client();
  const other = await db.client.create({
    data: { projectId, clientType: CLIENT_TYPE, groupId: 'number-2', platformId: 'other' },
  });
  mode = 'hold';
  await send(id, 'here');
  await send(other.id, 'there');
  expect(await releaseHeldSends(db, { projectId, clientType: CLIENT_TYPE, groupId: 'number-2' })).toBe(1);
  // The one released is taken by a sweeper: being tried, it is not released again (that would
  // let a second process take it at once).
  await db.outbox.updateMany({
    where: { clientId: other.id },
    data: { state: 'pending', claimedUntil: new Date(Date.now() + 60_000) },
  });
  expect(await releaseHeldSends(db, { projectId, clientType: CLIENT_TYPE, groupId: 'number-2' })).toBe(0);
  expect(await outbox(id)).toEqual([{ state: 'held' }]);
  // While it is tried, the client's next message still waits behind it.
  tries.length = 0;
  await send(other.id, 'behind');
  expect(tries).toEqual([]);
  expect((await history(other.id)).map((m) => m.status)).toEqual(['queued', 'queued']);
});

it('makes a released send due at once: the next sweep takes it, even within the same millisecond', async () => {
  const { id } = await db.client.create({
    data: { projectId, clientType: CLIENT_TYPE, groupId: 'number-3', platformId: 'instant' },
  });
  mode = 'hold';
  await send(id, 'now');
  const [row] = await db.outbox.findMany({ where: { clientId: id, kind: 'send' }, select: { id: true } });
  // In one transaction the release and the sweep's claim see one now(). A release that stored
  // now() rounded to the column's milliseconds left the row not due yet whenever it rounded
  // up: about every other time, so twenty tries.
  for (let i = 0; i < 20; i++) {
    const claimed = await sqlTransaction(db, async (_tx, sql) => {
      await sql.run(releaseHeld, { projectId, clientType: CLIENT_TYPE, groupId: 'number-3' });
      return sql.runAndCommit(claimExpired, {});
    });
    expect(claimed.map((c) => String(c.row.id))).toContain(String(row.id));
    await db.outbox.update({
      where: { id: row.id },
      data: { state: 'held', claimedUntil: new Date(Date.now() + 3600_000) },
    });
  }
});
