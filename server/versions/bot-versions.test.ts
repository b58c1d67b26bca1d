import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { handleEvent } from '@/server/engine/handle-event';
import { signedInCaller } from '@/server/trpc/testing/signed-in';

/**
 * Draft and published (docs/versions.md): the builder edits the draft, clients on every channel
 * talk to the published version, the simulator to the draft; publishing checks the draft,
 * numbers versions in order, and a rollback publishes an old bot again.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-versions-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let owner: Awaited<ReturnType<typeof signedInCaller>>;
let projectId: number;

/** Answers every message with `greeting` (an arrow back to its block). */
const bot = (greeting: string, extra: object[] = []) => ({
  format: BOT_SCHEMA_FORMAT,
  blocks: [{ id: 1, kind: 'start', text: greeting, trigger: { alternatives: '' } }, ...extra],
  arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
});

/** Saves the draft as the builder does, from the revision it shows. */
async function saveDraft(schema: object) {
  const { revision } = await owner.botSchema.get({ projectId });
  return owner.botSchema.save({ projectId, schema, expectedRevision: revision });
}

/** A tg client's message through the engine: what the bot answered. */
async function tgClientSays(platformId: string, text: string) {
  const result = await handleEvent(
    await getEngineDeps(),
    projectId,
    { ref: { clientType: 1, groupId: 'shop_bot', platformId, name: platformId } },
    { type: 'message', text },
  );
  return result.messages.map((m) => m.text);
}

/** A signed-in member of the project with this role. */
async function memberCaller(email: string, role: 'admin' | 'operator') {
  const caller = await signedInCaller(db, email);
  await db.projectMember.create({
    data: { projectId, userId: `u-${email}`, email, name: email.split('@')[0], role, active: true },
  });
  return caller;
}

const simulatorSays = async (text: string) => {
  await owner.simulator.send({ projectId, text });
  const { transcript } = await owner.simulator.state({ projectId });
  return transcript.at(-1)?.text;
};

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  owner = await signedInCaller(db, 'olga@example.com');
  projectId = (await owner.project.create({ name: 'Shop', timeZone: 'UTC', withDemoBot: false })).id;
});
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('draft and published', () => {
  it('a new project without the demo bot has nothing published; clients get no answer', async () => {
    expect(await owner.versions.state({ projectId })).toMatchObject({
      published: null,
      unpublishedChanges: true,
    });
    await saveDraft(bot('Hello from the draft'));
    expect(await tgClientSays('100', 'hi')).toEqual([]);
    expect(await simulatorSays('hi')).toBe('Hello from the draft');
  });

  it('publishes the draft as version 1; clients get it, and later edits reach only the simulator', async () => {
    const { revision } = await owner.botSchema.get({ projectId });
    const v1 = await owner.versions.publish({ projectId, note: 'First', expectedRevision: revision });
    // A bot without tests publishes without running any.
    expect(v1).toMatchObject({
      version: { number: 1, note: 'First', publishedBy: 'olga', blocks: 1, arrows: 1, testsRun: 0 },
      tests: null,
    });
    expect(await owner.versions.state({ projectId })).toMatchObject({
      published: { number: 1 },
      unpublishedChanges: false,
    });
    expect(await tgClientSays('101', 'hi')).toEqual(['Hello from the draft']);

    // An edit mid-conversation: the client still talks to version 1.
    await saveDraft(bot('Hello, edited'));
    expect(await owner.versions.state({ projectId })).toMatchObject({ unpublishedChanges: true });
    expect(await tgClientSays('101', 'again')).toEqual(['Hello from the draft']);
    expect(await simulatorSays('hi')).toBe('Hello, edited');

    const v2 = await owner.versions.publish({
      projectId,
      note: '',
      expectedRevision: (await owner.botSchema.get({ projectId })).revision,
    });
    expect(v2.version?.number).toBe(2);
    expect(await tgClientSays('101', 'once more')).toEqual(['Hello, edited']);
  });

  it('refuses to publish nothing new, a stale draft, and a draft with errors, naming block and field', async () => {
    const { revision } = await owner.botSchema.get({ projectId });
    await expect(owner.versions.publish({ projectId, note: '', expectedRevision: revision })).rejects.toThrow(
      'no changes since version 2',
    );
    await saveDraft(bot('Hello, third'));
    await expect(owner.versions.publish({ projectId, note: '', expectedRevision: revision })).rejects.toThrow(
      'The draft was changed elsewhere',
    );
    // A block that adds clients to a list the project does not have.
    await saveDraft(bot('Hello', [{ id: 2, kind: 'state', text: 'Joined', actions: { addToLists: [999] } }]));
    const error = await owner.versions
      .publish({ projectId, note: '', expectedRevision: (await owner.botSchema.get({ projectId })).revision })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('The draft was not published');
    expect((error as Error).message).toContain('block #2');
    expect((await owner.versions.state({ projectId })).published?.number).toBe(2);
  });

  it('two admins publishing at once make two versions in order', async () => {
    await saveDraft(bot('Hello, raced'));
    const second = await memberCaller('adam@example.com', 'admin');
    const { revision } = await owner.botSchema.get({ projectId });
    const results = await Promise.allSettled([
      owner.versions.publish({ projectId, note: 'Olga', expectedRevision: revision }),
      second.versions.publish({ projectId, note: 'Adam', expectedRevision: revision }),
    ]);
    const published = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.version?.number] : []));
    // One publishes version 3; the other, after it, finds nothing new: never a mix.
    expect(published).toEqual([3]);
    expect((await owner.versions.list({ projectId })).map((v) => v.number)).toEqual([3, 2, 1]);
  });

  it('rolls back by publishing an old version again, leaving the draft; discarding the draft takes the published bot', async () => {
    const rolled = await owner.versions.rollback({ projectId, version: 1, note: '' });
    expect(rolled).toMatchObject({ number: 4, restoredFrom: 1, note: 'Rollback to version 1' });
    expect(await tgClientSays('102', 'hi')).toEqual(['Hello from the draft']);
    expect(await owner.versions.state({ projectId })).toMatchObject({ unpublishedChanges: true });
    expect((await owner.botSchema.get({ projectId })).schema.blocks[0].text).toBe('Hello, raced');

    await owner.versions.discardDraft({ projectId });
    expect((await owner.botSchema.get({ projectId })).schema.blocks[0].text).toBe('Hello from the draft');
    expect(await owner.versions.state({ projectId })).toMatchObject({ unpublishedChanges: false });
    expect(JSON.parse((await owner.versions.export({ projectId, version: 2 })).json).blocks[0].text).toBe(
      'Hello, edited',
    );
  });

  it('refuses to roll back to a version whose list was deleted since, saying which block uses it', async () => {
    const list = await owner.lists.create({ projectId, name: 'Newsletter' });
    await saveDraft(
      bot('Join?', [{ id: 2, kind: 'state', text: 'Joined', actions: { addToLists: [list.id] } }]),
    );
    const { revision } = await owner.botSchema.get({ projectId });
    const { version: withList } = await owner.versions.publish({
      projectId,
      note: 'With the list',
      expectedRevision: revision,
    });
    if (!withList) throw new Error('not published');
    await owner.versions.rollback({ projectId, version: 1, note: '' });
    await owner.lists.delete({ projectId, listId: list.id });
    const refused = await owner.versions
      .rollback({ projectId, version: withList.number, note: '' })
      .catch((e: Error) => e);
    expect((refused as Error).message).toContain(`Version ${withList.number} was not published again`);
    expect((refused as Error).message).toContain(`block #2: This block's actions use list ${list.id}`);
    expect((await owner.versions.state({ projectId })).published?.number).toBe(withList.number + 1);
  });

  it('operators see versions, their differences and analytics, but cannot publish, roll back or discard', async () => {
    const operator = await memberCaller('oleg@example.com', 'operator');
    expect((await operator.versions.list({ projectId })).length).toBe(6);
    expect((await operator.versions.diff({ projectId, from: 1, to: 2 })).diff).toBeDefined();
    const today = new Date().toISOString().slice(0, 10);
    const flow = await operator.analytics.flow({
      projectId,
      from: today,
      to: today,
      stoppedAfterMinutes: 60,
    });
    // Version 6 has no clients of its own yet; blocks listed have earlier versions' totals only.
    expect(flow).toMatchObject({ version: 6, includeTests: false });
    expect(flow.blocks.every((b) => b.entries === 0 && b.allVersions.entries > 0)).toBe(true);
    // The input is checked at the boundary, naming the field.
    await expect(
      operator.analytics.flow({ projectId, from: '2016-01-01', to: today, stoppedAfterMinutes: 60 }),
    ).rejects.toThrow('A range is at most 366 days');
    await expect(operator.versions.discardDraft({ projectId })).rejects.toThrow('owner or an admin');
    await expect(operator.versions.rollback({ projectId, version: 2, note: '' })).rejects.toThrow(
      'owner or an admin',
    );
  });
});
