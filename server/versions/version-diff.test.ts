import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { signedInCaller } from '@/server/trpc/testing/signed-in';
import { diffVersions } from './bot-versions';

/**
 * Comparing versions (docs/versions.md): two published versions, a version and the draft, and
 * the empty bot before version 1, read from the stored versions and the draft's rows.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-version-diff-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let owner: Awaited<ReturnType<typeof signedInCaller>>;
let projectId: number;

const greeting = { id: 1, kind: 'start', name: 'Greeting', text: 'Hi!', trigger: { alternatives: '' } };
const menu = {
  id: 2,
  kind: 'state',
  name: 'Menu',
  text: 'Pick one',
  position: { x: 300, y: 0 },
  buttons: [{ text: 'Prices' }, { text: 'Delivery' }],
};
const version1 = {
  format: BOT_SCHEMA_FORMAT,
  blocks: [greeting, menu],
  arrows: [{ id: 1, from: 1, to: 2, kind: 'continue' }],
};
const version2 = {
  format: BOT_SCHEMA_FORMAT,
  blocks: [
    { ...greeting, position: { x: 40, y: 40 } },
    { ...menu, buttons: [{ text: 'Prices' }, { text: 'Shipping' }] },
    { id: 3, kind: 'not_state', name: 'Prices', text: 'Tea 3 €' },
  ],
  arrows: [
    { id: 1, from: 1, to: 2, kind: 'continue' },
    { id: 2, from: 2, to: 3, kind: 'condition', condition: { alternatives: 'Prices' } },
  ],
};

/** Saves the draft as the builder does, from the revision it shows. */
async function saveDraft(schema: object) {
  const { revision } = await owner.botSchema.get({ projectId });
  return owner.botSchema.save({ projectId, schema, expectedRevision: revision });
}

async function publish(schema: object, note: string) {
  await saveDraft(schema);
  const { revision } = await owner.botSchema.get({ projectId });
  return owner.versions.publish({ projectId, note, expectedRevision: revision });
}

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  owner = await signedInCaller(db, 'olga@example.com');
  projectId = (await owner.project.create({ name: 'Shop', timeZone: 'UTC', withDemoBot: false })).id;
  await publish(version1, 'First menu');
  await publish(version2, 'Prices');
});
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('comparing versions', () => {
  it('lists what version 2 changed from version 1, field by field, a move apart', async () => {
    const { from, to, diff } = await owner.versions.diff({ projectId, from: 1, to: 2 });
    expect({ from, to }).toEqual({ from: 1, to: 2 });
    expect(diff.blocks.added).toEqual([{ id: 3, name: 'Prices', kind: 'not_state' }]);
    expect(diff.blocks.removed).toEqual([]);
    expect(diff.blocks.changed).toEqual([
      {
        id: 2,
        name: 'Menu',
        kind: 'state',
        moved: false,
        changes: [{ path: 'buttons[1].text', before: 'Delivery', after: 'Shipping' }],
      },
    ]);
    expect(diff.blocks.moved).toMatchObject([{ id: 1, before: { x: 0, y: 0 }, after: { x: 40, y: 40 } }]);
    expect(diff.arrows.added).toEqual([{ id: 2, kind: 'condition', from: '#2 Menu', to: '#3 Prices' }]);
    expect(diff.arrows.changed).toEqual([]);
    expect(diff.bot).toEqual([]);
  });

  it('reads the other way round as the opposite', async () => {
    const { diff } = await owner.versions.diff({ projectId, from: 2, to: 1 });
    expect(diff.blocks.removed.map((b) => b.id)).toEqual([3]);
    expect(diff.blocks.changed[0].changes).toEqual([
      { path: 'buttons[1].text', before: 'Shipping', after: 'Delivery' },
    ]);
  });

  it('a published version against its own draft has no changes; an edit of the draft shows', async () => {
    // The draft comes from the Block and Arrow rows, the version from its stored JSON: both read alike.
    const same = await diffVersions(db, projectId, 2, 'draft');
    expect(same.diff.blocks).toEqual({ added: [], removed: [], changed: [], moved: [] });
    expect(same.diff.arrows).toEqual({ added: [], removed: [], changed: [] });

    await saveDraft({
      ...version2,
      blocks: version2.blocks.filter((b) => b.id !== 3),
      arrows: [{ id: 1, from: 1, to: 2, kind: 'continue', cancelIfLeft: false }],
    });
    const { diff } = await owner.versions.diff({ projectId, from: 2, to: 'draft' });
    expect(diff.blocks.removed).toEqual([{ id: 3, name: 'Prices', kind: 'not_state' }]);
    expect(diff.arrows.removed).toEqual([{ id: 2, kind: 'condition', from: '#2 Menu', to: '#3 Prices' }]);
    expect(diff.arrows.changed).toMatchObject([
      { id: 1, changes: [{ path: 'cancelIfLeft', before: true, after: false }] },
    ]);
  });

  it('version 0 is the empty bot before the first: version 1 is all added', async () => {
    const { diff } = await diffVersions(db, projectId, 0, 1);
    expect(diff.blocks.added.map((b) => b.id)).toEqual([1, 2]);
    expect(diff.arrows.added.map((a) => a.id)).toEqual([1]);
  });

  it('refuses a version the bot does not have, naming it', async () => {
    await expect(diffVersions(db, projectId, 7, 'draft')).rejects.toThrow(
      'Cannot compare version 7 with the draft: the bot has no version 7.',
    );
    const refused = owner.versions.diff({ projectId, from: 1, to: 9 });
    await expect(refused).rejects.toBeInstanceOf(TRPCError);
    await expect(refused).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('no version 9'),
    });
    await expect(diffVersions(db, projectId, 8, 9)).rejects.toThrow(
      'the bot has no version 8 and no version 9',
    );
    await expect(diffVersions(db, 999_999, 1, 'draft')).rejects.toThrow('Project 999999 does not exist.');
  });

  it('refuses a side that is not a version or the draft', async () => {
    await expect(
      owner.versions.diff({ projectId, from: -1, to: 'draft' } as unknown as {
        projectId: number;
        from: number;
        to: 'draft';
      }),
    ).rejects.toThrow('A version is 0 or more.');
    await expect(
      owner.versions.diff({ projectId, from: 1, to: 'latest' } as unknown as {
        projectId: number;
        from: number;
        to: 'draft';
      }),
    ).rejects.toThrow();
  });

  it('operators may compare; someone outside the project may not', async () => {
    const operator = await signedInCaller(db, 'oleg@example.com');
    await expect(operator.versions.diff({ projectId, from: 1, to: 2 })).rejects.toThrow();
    await db.projectMember.create({
      data: {
        projectId,
        userId: 'u-oleg@example.com',
        email: 'oleg@example.com',
        name: 'oleg',
        role: 'operator',
        active: true,
      },
    });
    const { diff } = await operator.versions.diff({ projectId, from: 1, to: 2 });
    expect(diff.blocks.added).toHaveLength(1);
  });
});
