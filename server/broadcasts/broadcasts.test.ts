import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { startWorkers } from '@/server/jobs/jobs';
import { waitFor } from '@/server/testing/wait-for';
import { signedInCaller } from '@/server/trpc/testing/signed-in';
import { broadcastDispatchJob, broadcastSendJob, startBroadcast } from './broadcast-jobs';
import { dispatchStep, type QueuedSend, sendBroadcastMessage } from './broadcast-service';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-broadcasts-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
});
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Caller = Awaited<ReturnType<typeof signedInCaller>>;
const noFilter = { listIds: [], excludeListIds: [], clientTypes: [] };
const message = (over: Record<string, unknown> = {}) => ({
  text: 'Hello #{name}',
  filter: noFilter,
  mode: 'now' as const,
  shiftSeconds: 0,
  ...over,
});

/** A project with a two-block bot and `n` simulator clients (ids ascending). */
async function project(owner: Caller, name: string, n: number) {
  const p = await owner.project.create({ name, timeZone: 'Europe/Berlin', withDemoBot: false });
  await owner.botSchema.save({
    projectId: p.id,
    expectedRevision: 0,
    schema: {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        { id: 1, kind: 'start', text: 'Hi', trigger: { alternatives: '' } },
        { id: 2, kind: 'state', name: 'Offer', text: 'Offer for #{name}' },
      ],
      arrows: [],
    },
  });
  // A broadcast's block is one of the published bot's.
  await owner.versions.publish({ projectId: p.id, note: '', expectedRevision: 1 });
  await db.client.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      projectId: p.id,
      clientType: 99,
      groupId: 'sim',
      platformId: `${name}-${i}`,
      name: `c${i}`,
    })),
  });
  const clients = await db.client.findMany({ where: { projectId: p.id }, orderBy: { id: 'asc' } });
  return { projectId: p.id, ids: clients.map((c) => c.id) };
}

const recipientsOf = async (broadcastId: number) =>
  (await db.broadcastRecipient.findMany({ where: { broadcastId }, orderBy: { clientId: 'asc' } })).map(
    (r) => r.clientId,
  );

describe('recipients', () => {
  it('each filter selects the clients it names, and the count shown before sending is the broadcast total', async () => {
    const owner = await signedInCaller(db, 'filters@example.com');
    const { projectId, ids } = await project(owner, 'filters', 10);
    const [a, b, c, d, e, f, g, h, i, j] = ids as [number, ...number[]];
    const vip = await db.clientList.create({ data: { projectId, name: 'VIP' } });
    const blocked = await db.clientList.create({ data: { projectId, name: 'Blocked' } });
    await db.clientListMember.createMany({
      data: [a, b, c].map((clientId) => ({ listId: vip.id, clientId, projectId })),
    });
    await db.clientListMember.create({ data: { listId: blocked.id, clientId: b, projectId } });
    await db.client.update({ where: { id: d }, data: { clientType: 1, groupId: 'tg_bot' } });
    await db.client.update({ where: { id: e }, data: { currentBlockId: 2 } });
    await db.client.update({ where: { id: j }, data: { subscribed: false } });
    const state = await db.crmState.findFirstOrThrow({ where: { projectId } });
    await db.deal.create({ data: { projectId, clientId: f, stateId: state.id } });
    await db.deal.create({ data: { projectId, clientId: g, stateId: state.id, closedAt: new Date() } });
    await db.clientVariable.createMany({
      data: [
        { projectId, clientId: h, name: 'city', value: 'Berlin', valueKey: 'Berlin' },
        { projectId, clientId: i, name: 'city', value: 'Hamburg', valueKey: 'Hamburg' },
      ],
    });
    await db.client.update({ where: { id: a }, data: { createdAt: new Date('2026-01-10T12:00:00Z') } });
    await db.client.update({ where: { id: c }, data: { createdAt: new Date('2025-12-31T23:30:00Z') } });

    const cases: [Record<string, unknown>, number[]][] = [
      [{}, ids.filter((x) => x !== j)],
      [{ listIds: [vip.id] }, [a, b, c]],
      [{ listIds: [vip.id], excludeListIds: [blocked.id] }, [a, c]],
      [{ clientTypes: [1] }, [d]],
      [{ crmStateId: state.id }, [f]],
      [{ blockId: 2 }, [e]],
      [{ variable: { name: 'client.city', op: 'equals', value: 'Berlin' } }, [h]],
      [{ variable: { name: 'city', op: 'contains', value: 'BURG' } }, [i]],
      [{ variable: { name: 'city', op: 'is_set' } }, [h, i]],
      [{ variable: { name: 'city', op: 'is_not_set' }, listIds: [vip.id] }, [a, b, c]],
      // Days of the project's zone (Berlin, UTC+1): 2025-12-31 23:30 UTC is January 1st there.
      [{ firstContactBefore: '2026-01-02', firstContactAfter: '2026-01-01' }, [c]],
      [{ firstContactBefore: '2026-02-01', listIds: [vip.id] }, [a, c]],
    ];
    for (const [filter, expected] of cases) {
      const full = { ...noFilter, ...filter };
      const count = await owner.broadcasts.count({ projectId, filter: full });
      const created = await owner.broadcasts.create({
        projectId,
        ...message({ filter: full, mode: 'draft' }),
      });
      await owner.broadcasts.sendDraft({ projectId, broadcastId: created.id });
      expect([filter, count, await recipientsOf(created.id)]).toEqual([filter, expected.length, expected]);
      await owner.broadcasts.control({ projectId, broadcastId: created.id, action: 'cancel' });
    }
  });

  it('refuses bad input naming the field, and saves nothing', async () => {
    const owner = await signedInCaller(db, 'bad@example.com');
    const { projectId } = await project(owner, 'bad', 2);
    const list = await db.clientList.create({ data: { projectId, name: 'Empty' } });
    const refused = async (input: Record<string, unknown>) =>
      owner.broadcasts.create({ projectId, ...message(input) } as never).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
    expect(await refused({ filter: { ...noFilter, listIds: [list.id] } })).toMatch(
      /^recipients: no client matches/,
    );
    expect(await refused({ mode: 'schedule', scheduledAt: '2020-01-01T10:00' })).toMatch(
      /^scheduledAt: this time has passed/,
    );
    expect(await refused({ mode: 'schedule' })).toMatch(/^scheduledAt: pick the date/);
    expect(await refused({ text: '  ' })).toMatch(/^text: write a message/);
    expect(await refused({ shiftSeconds: -1 })).toMatch(/shift: must be 0 seconds or more/);
    expect(await refused({ filter: { ...noFilter, listIds: [999_999] } })).toMatch(
      /List 999999 does not exist/,
    );
    expect(await refused({ blockId: 77, text: '' })).toMatch(/Block 77 is not in the published bot/);
    expect(await db.broadcast.count({ where: { projectId } })).toBe(0);
    // A draft may be empty, but cannot be sent so.
    const draft = await owner.broadcasts.create({ projectId, ...message({ text: '', mode: 'draft' }) });
    await expect(owner.broadcasts.sendDraft({ projectId, broadcastId: draft.id })).rejects.toThrow(/^text:/);
  });
});

describe('running a broadcast', () => {
  it('pause leaves the queued sends idle, resume sends each pending recipient once, cancel stops the rest', async () => {
    const owner = await signedInCaller(db, 'control@example.com');
    const { projectId, ids } = await project(owner, 'control', 6);
    const deps = await getEngineDeps();
    const created = await owner.broadcasts.create({ projectId, ...message() });
    expect(created).toMatchObject({ status: 'running', total: 6 });
    // Two recipients are sent before the pause, by the sends the first dispatch queued (epoch 0).
    for (const clientId of ids.slice(0, 2))
      await sendBroadcastMessage(deps, { projectId, broadcastId: created.id, clientId, epoch: 0 });
    await owner.broadcasts.control({ projectId, broadcastId: created.id, action: 'pause' });
    await expect(
      owner.broadcasts.control({ projectId, broadcastId: created.id, action: 'pause' }),
    ).rejects.toThrow(/only a running broadcast can be paused/);
    for (const clientId of ids.slice(2))
      await sendBroadcastMessage(deps, { projectId, broadcastId: created.id, clientId, epoch: 0 });
    expect(await owner.broadcasts.get({ projectId, broadcastId: created.id })).toMatchObject({
      status: 'paused',
      sent: 2,
      pending: 4,
    });

    await owner.broadcasts.control({ projectId, broadcastId: created.id, action: 'resume' });
    const b = await db.broadcast.findUniqueOrThrow({ where: { id: created.id } });
    // The resumed dispatcher (epoch 2) queued the four pending ones; old sends (epoch 0) do nothing.
    const queued: QueuedSend[] = [];
    await db.broadcast.update({ where: { id: b.id }, data: { cursor: 0 } });
    await dispatchStep(
      db,
      { projectId, broadcastId: b.id, epoch: b.epoch },
      async (s) => void queued.push(...s),
    );
    expect(queued.map((s) => [s.data.clientId, s.data.epoch])).toEqual(ids.slice(2).map((id) => [id, 2]));
    await sendBroadcastMessage(deps, { projectId, broadcastId: b.id, clientId: ids[2]!, epoch: 0 });
    for (const s of queued) await sendBroadcastMessage(deps, s.data);
    for (const s of queued) await sendBroadcastMessage(deps, s.data);
    expect(await owner.broadcasts.get({ projectId, broadcastId: b.id })).toMatchObject({
      status: 'done',
      sent: 6,
      failed: 0,
      pending: 0,
    });
    const copies = await db.message.count({
      where: { projectId, direction: 'out', text: { startsWith: 'Hello' } },
    });
    expect(copies).toBe(6);

    const second = await owner.broadcasts.create({ projectId, ...message() });
    await sendBroadcastMessage(deps, { projectId, broadcastId: second.id, clientId: ids[0]!, epoch: 0 });
    await owner.broadcasts.control({ projectId, broadcastId: second.id, action: 'cancel' });
    for (const clientId of ids)
      await sendBroadcastMessage(deps, { projectId, broadcastId: second.id, clientId, epoch: 1 });
    expect(await owner.broadcasts.get({ projectId, broadcastId: second.id })).toMatchObject({
      status: 'cancelled',
      sent: 1,
      cancelled: 5,
    });
    const page = await owner.broadcasts.recipients({
      projectId,
      broadcastId: second.id,
      status: 'cancelled',
    });
    expect(page.total).toBe(5);
    await expect(
      owner.broadcasts.control({ projectId, broadcastId: second.id, action: 'resume' }),
    ).rejects.toThrow(/only a paused broadcast can be resumed/);
  });

  it('a version published mid-broadcast reaches the recipients not yet sent; a block it removed fails theirs', async () => {
    const owner = await signedInCaller(db, 'midway@example.com');
    const { projectId, ids } = await project(owner, 'midway', 4);
    const deps = await getEngineDeps();
    const sent = async (clientId: number) =>
      (await db.message.findFirst({ where: { clientId, direction: 'out' }, orderBy: { id: 'desc' } }))?.text;
    const republish = async (blocks: object[]) => {
      const { draftRevision } = await owner.versions.state({ projectId });
      await owner.botSchema.save({
        projectId,
        expectedRevision: draftRevision,
        schema: { format: BOT_SCHEMA_FORMAT, blocks, arrows: [] },
      });
      await owner.versions.publish({ projectId, note: '', expectedRevision: draftRevision + 1 });
    };
    const start = { id: 1, kind: 'start', text: 'Hi', trigger: { alternatives: '' } };
    const broadcast = await owner.broadcasts.create({ projectId, ...message({ text: '', blockId: 2 }) });
    await sendBroadcastMessage(deps, { projectId, broadcastId: broadcast.id, clientId: ids[0]!, epoch: 0 });
    expect(await sent(ids[0]!)).toBe('Offer for c0');

    // Version 2 rewrites the block: the next recipients get it as version 2 has it.
    await republish([start, { id: 2, kind: 'state', name: 'Offer', text: 'New offer for #{name}' }]);
    await sendBroadcastMessage(deps, { projectId, broadcastId: broadcast.id, clientId: ids[1]!, epoch: 0 });
    expect(await sent(ids[1]!)).toBe('New offer for c1');

    // Version 3 removes it: the rest fail, saying why, and the report counts them.
    await republish([start]);
    for (const clientId of ids.slice(2))
      await sendBroadcastMessage(deps, { projectId, broadcastId: broadcast.id, clientId, epoch: 0 });
    expect(await owner.broadcasts.get({ projectId, broadcastId: broadcast.id })).toMatchObject({
      status: 'done',
      sent: 2,
      failed: 2,
    });
    const failed = await owner.broadcasts.recipients({
      projectId,
      broadcastId: broadcast.id,
      status: 'failed',
    });
    expect(failed.items.map((r) => r.error)).toEqual([
      'Block 2 does not exist in this bot.',
      'Block 2 does not exist in this bot.',
    ]);
    expect(await sent(ids[2]!)).toBeUndefined();
  });

  it('the dispatcher queues sends in batches, at most a minute ahead, and carries on later', async () => {
    const owner = await signedInCaller(db, 'dispatch@example.com');
    const { projectId } = await project(owner, 'dispatch', 1200);
    const created = await startBroadcast(db, projectId, {
      text: 'Batch',
      attachments: [],
      buttons: null,
      shiftSeconds: 0.1,
      mode: 'draft',
    });
    await db.broadcast.update({ where: { id: created.id }, data: { status: 'scheduled' } });
    const { beginBroadcast } = await import('./broadcast-service');
    const started = await beginBroadcast(db, projectId, created.id);
    expect(started).toMatchObject({ status: 'running', total: 1200 });
    const queued: QueuedSend[] = [];
    const t0 = Date.now();
    const data = { projectId, broadcastId: created.id, epoch: started!.epoch };
    const next = await dispatchStep(
      db,
      data,
      async (s) => void queued.push(...s),
      () => new Date(t0),
    );
    expect(queued).toHaveLength(1000);
    expect(next!.getTime()).toBeGreaterThan(t0);
    expect(queued[999]!.startAfter.getTime() - queued[0]!.startAfter.getTime()).toBe(99_900);
    const later = await dispatchStep(
      db,
      data,
      async (s) => void queued.push(...s),
      () => new Date(t0 + 90_000),
    );
    expect(later).toBeNull();
    expect(new Set(queued.map((s) => s.data.clientId)).size).toBe(1200);
  });

  it('runs to the end through the job workers: now, scheduled, and the API broadcast alike', async () => {
    await startWorkers([broadcastSendJob, broadcastDispatchJob] as never);
    const owner = await signedInCaller(db, 'workers@example.com');
    const { projectId } = await project(owner, 'workers', 30);
    const list = await db.clientList.create({ data: { projectId, name: 'All' } });
    const clients = await db.client.findMany({ where: { projectId } });
    await db.clientListMember.createMany({
      data: clients.slice(0, 20).map((c) => ({ listId: list.id, clientId: c.id, projectId })),
    });
    const now = await owner.broadcasts.create({
      projectId,
      ...message({ blockId: 2, text: '', filter: { ...noFilter, listIds: [list.id] } }),
    });
    const api = await startBroadcast(db, projectId, {
      text: 'From the API',
      attachments: [],
      buttons: null,
      shiftSeconds: 0,
      listId: list.id,
    });
    const scheduled = await owner.broadcasts.create({
      projectId,
      ...message({ mode: 'schedule', scheduledAt: '2099-01-01T09:00' }),
    });
    expect(scheduled).toMatchObject({ status: 'scheduled', total: 30 });
    // Its dispatch job is due in 2099; moved to now, as if the time had come.
    await db.$executeRawUnsafe(
      `UPDATE pgboss.job SET start_after = now() WHERE name = 'broadcast.dispatch' AND data->>'broadcastId' = '${scheduled.id}'`,
    );
    for (const id of [now.id, api.id, scheduled.id])
      await waitFor(
        async () => (await db.broadcast.findUniqueOrThrow({ where: { id } })).status === 'done',
        `broadcast ${id} to finish`,
        60_000,
      );
    const list1 = await owner.broadcasts.list({ projectId });
    expect(list1.items.map((b) => [b.source, b.status, b.total, b.sent, b.failed])).toEqual([
      ['app', 'done', 30, 30, 0],
      ['api', 'done', 20, 20, 0],
      ['app', 'done', 20, 20, 0],
    ]);
    // The block broadcast moved each recipient into the block.
    expect(await db.client.count({ where: { projectId, currentBlockId: 2 } })).toBe(20);
  }, 90_000);
});

describe('roles and projects', () => {
  it('operators send while the setting allows it; only managers change it; other projects see nothing', async () => {
    const owner = await signedInCaller(db, 'roles-owner@example.com');
    const { projectId } = await project(owner, 'roles', 3);
    const operatorUser = await signedInCaller(db, 'roles-op@example.com');
    const opUser = await db.user.findUniqueOrThrow({ where: { email: 'roles-op@example.com' } });
    await db.projectMember.create({
      data: { projectId, userId: opUser.id, email: opUser.email, role: 'operator' },
    });
    const sent = await operatorUser.broadcasts.create({ projectId, ...message({ mode: 'draft' }) });
    await expect(operatorUser.broadcasts.setOperatorsSend({ projectId, allowed: false })).rejects.toThrow(
      /owner or an admin/,
    );
    await owner.broadcasts.setOperatorsSend({ projectId, allowed: false });
    await expect(operatorUser.broadcasts.create({ projectId, ...message() })).rejects.toThrow(
      /Operators may not send broadcasts/,
    );
    await expect(operatorUser.broadcasts.sendDraft({ projectId, broadcastId: sent.id })).rejects.toThrow(
      /Operators may not send/,
    );
    await expect(
      operatorUser.broadcasts.control({ projectId, broadcastId: sent.id, action: 'cancel' }),
    ).rejects.toThrow(/Operators may not send/);
    // Operators still see the broadcasts.
    expect((await operatorUser.broadcasts.list({ projectId })).canSend).toBe(false);
    expect((await operatorUser.broadcasts.list({ projectId })).items).toHaveLength(1);

    const stranger = await signedInCaller(db, 'roles-other@example.com');
    const other = await project(stranger, 'roles-other', 1);
    await expect(stranger.broadcasts.get({ projectId, broadcastId: sent.id })).rejects.toThrow();
    await expect(
      stranger.broadcasts.get({ projectId: other.projectId, broadcastId: sent.id }),
    ).rejects.toThrow(/does not exist in this project/);
    await expect(
      stranger.broadcasts.control({ projectId: other.projectId, broadcastId: sent.id, action: 'cancel' }),
    ).rejects.toThrow(/does not exist in this project/);
    const foreignList = await db.clientList.create({ data: { projectId, name: 'Theirs' } });
    await expect(
      stranger.broadcasts.count({
        projectId: other.projectId,
        filter: { ...noFilter, listIds: [foreignList.id] },
      }),
    ).rejects.toThrow(/does not exist in this project/);
  });
});

describe('editing a draft', () => {
  it('saves into the same draft, prefills what it holds, then schedules or sends it; refuses once it is not a draft', async () => {
    const owner = await signedInCaller(db, 'edit@example.com');
    const { projectId, ids } = await project(owner, 'edit', 4);
    const list = await db.clientList.create({ data: { projectId, name: 'Two' } });
    await db.clientListMember.createMany({
      data: ids.slice(0, 2).map((clientId) => ({ listId: list.id, clientId, projectId })),
    });
    const draft = await owner.broadcasts.create({
      projectId,
      ...message({ name: 'Sale', mode: 'draft', shiftSeconds: 1 }),
    });
    const saved = await owner.broadcasts.updateDraft({
      projectId,
      broadcastId: draft.id,
      name: 'Spring sale',
      text: 'Spring #{name}',
      attachment: { type: 'image', url: 'https://example.com/a.png' },
      buttons: [
        { type: 'inline', text: 'Yes' },
        { type: 'inline', text: 'No' },
      ],
      shiftSeconds: 0.5,
      filter: {
        ...noFilter,
        listIds: [list.id],
        variable: { name: 'city', op: 'is_not_set', value: '' },
        firstContactAfter: '2020-03-01',
      },
      mode: 'draft',
    });
    expect(saved).toMatchObject({ id: draft.id, status: 'draft' });
    expect(await db.broadcast.count({ where: { projectId } })).toBe(1);
    // The edit form's prefill: the draft's own values, its days in the project's zone.
    expect(await owner.broadcasts.draft({ projectId, broadcastId: draft.id })).toEqual({
      id: draft.id,
      status: 'draft',
      name: 'Spring sale',
      text: 'Spring #{name}',
      blockId: null,
      attachment: { type: 'image', url: 'https://example.com/a.png' },
      buttons: ['Yes', 'No'],
      inlineButtons: true,
      shiftSeconds: 0.5,
      filter: {
        ...noFilter,
        listIds: [list.id],
        crmStateId: undefined,
        blockId: undefined,
        variable: { name: 'city', op: 'is_not_set', value: '' },
        firstContactAfter: '2020-03-01',
        firstContactBefore: undefined,
      },
    });
    // Edited into a block broadcast and scheduled: its recipients counted, then no longer editable.
    const edit = (over: Record<string, unknown>) =>
      owner.broadcasts.updateDraft({ projectId, broadcastId: draft.id, ...message(over) } as never);
    expect(
      await edit({ text: '', blockId: 2, mode: 'schedule', scheduledAt: '2099-01-01T09:00' }),
    ).toMatchObject({ id: draft.id, status: 'scheduled', total: 4 });
    const scheduled = await db.broadcast.findUniqueOrThrow({ where: { id: draft.id } });
    expect([scheduled.blockId, scheduled.text, scheduled.buttons, scheduled.attachments]).toEqual([
      2,
      '',
      null,
      [],
    ]);
    await expect(edit({ mode: 'draft' })).rejects.toThrow(/is scheduled, no longer a draft/);

    // Another draft sent now from the edit form: running, its recipients recorded.
    const second = await owner.broadcasts.create({ projectId, ...message({ mode: 'draft' }) });
    const sent = await owner.broadcasts.updateDraft({
      projectId,
      broadcastId: second.id,
      ...message({ filter: { ...noFilter, listIds: [list.id] } }),
    });
    expect(sent).toMatchObject({ id: second.id, status: 'running', total: 2 });
    expect(await recipientsOf(second.id)).toEqual(ids.slice(0, 2));
    // Sent meanwhile by another member, or cancelled: the edit is refused, saying why.
    const third = await owner.broadcasts.create({ projectId, ...message({ mode: 'draft' }) });
    await owner.broadcasts.sendDraft({ projectId, broadcastId: third.id });
    await expect(
      owner.broadcasts.updateDraft({ projectId, broadcastId: third.id, ...message({ mode: 'draft' }) }),
    ).rejects.toThrow(/^Broadcast \d+ is (running|done), no longer a draft: only a draft can be edited/);
    expect((await owner.broadcasts.draft({ projectId, broadcastId: third.id })).status).not.toBe('draft');
  });

  it('refuses bad input naming the field, as creating does, and leaves the draft unchanged', async () => {
    const owner = await signedInCaller(db, 'edit-bad@example.com');
    const { projectId } = await project(owner, 'edit-bad', 2);
    const empty = await db.clientList.create({ data: { projectId, name: 'Empty' } });
    const draft = await owner.broadcasts.create({
      projectId,
      ...message({ name: 'Kept', mode: 'draft', shiftSeconds: 2 }),
    });
    const before = await db.broadcast.findUniqueOrThrow({ where: { id: draft.id } });
    const refused = async (input: Record<string, unknown>) =>
      owner.broadcasts
        .updateDraft({ projectId, broadcastId: draft.id, ...message({ name: 'Changed', ...input }) } as never)
        .then(
          () => 'accepted',
          (e: Error) => e.message,
        );
    expect(await refused({ filter: { ...noFilter, listIds: [empty.id] } })).toMatch(
      /^recipients: no client matches/,
    );
    expect(
      await refused({
        filter: { ...noFilter, listIds: [empty.id] },
        mode: 'schedule',
        scheduledAt: '2099-01-01T09:00',
      }),
    ).toMatch(/^recipients: no client matches/);
    expect(await refused({ mode: 'schedule', scheduledAt: '2020-01-01T10:00' })).toMatch(
      /^scheduledAt: this time has passed/,
    );
    expect(await refused({ mode: 'schedule' })).toMatch(/^scheduledAt: pick the date/);
    expect(await refused({ text: '  ' })).toMatch(/^text: write a message/);
    expect(await refused({ shiftSeconds: -1 })).toMatch(/shift: must be 0 seconds or more/);
    expect(await refused({ filter: { ...noFilter, listIds: [999_999] }, mode: 'draft' })).toMatch(
      /List 999999 does not exist/,
    );
    expect(await refused({ blockId: 77, text: '', mode: 'draft' })).toMatch(
      /Block 77 is not in the published bot/,
    );
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: draft.id } })).toEqual(before);
    expect(await db.broadcastRecipient.count({ where: { broadcastId: draft.id } })).toBe(0);
  });

  it('operators edit while the setting allows it; another project does not find the draft', async () => {
    const owner = await signedInCaller(db, 'edit-roles@example.com');
    const { projectId } = await project(owner, 'edit-roles', 1);
    const op = await signedInCaller(db, 'edit-roles-op@example.com');
    const opUser = await db.user.findUniqueOrThrow({ where: { email: 'edit-roles-op@example.com' } });
    await db.projectMember.create({
      data: { projectId, userId: opUser.id, email: opUser.email, role: 'operator' },
    });
    const draft = await owner.broadcasts.create({ projectId, ...message({ mode: 'draft' }) });
    const edit = (caller: Caller, pid: number, text: string) =>
      caller.broadcasts.updateDraft({
        projectId: pid,
        broadcastId: draft.id,
        ...message({ text, mode: 'draft' }),
      });
    await edit(op, projectId, 'By the operator');
    await owner.broadcasts.setOperatorsSend({ projectId, allowed: false });
    await expect(edit(op, projectId, 'Refused')).rejects.toThrow(/Operators may not send broadcasts/);
    await edit(owner, projectId, 'By the owner');

    const stranger = await signedInCaller(db, 'edit-roles-other@example.com');
    const other = await project(stranger, 'edit-roles-other', 1);
    await expect(edit(stranger, projectId, 'Not a member')).rejects.toThrow();
    await expect(edit(stranger, other.projectId, 'Elsewhere')).rejects.toThrow(
      /does not exist in this project/,
    );
    await expect(
      stranger.broadcasts.draft({ projectId: other.projectId, broadcastId: draft.id }),
    ).rejects.toThrow(/does not exist in this project/);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: draft.id } })).text).toBe('By the owner');
  });
});
