import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { storeMessage } from '@/server/contacts/history-service';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import type { TRPCContext } from './init';
import { createCaller } from './root';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-profile-'));
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

async function signedIn(email: string) {
  const user = await db.user.create({ data: { id: `u-${email}`, email, name: email.split('@')[0] } });
  return createCaller({
    db,
    session: { user, session: { id: `s-${email}`, userId: user.id } } as unknown as TRPCContext['session'],
  });
}

/** A project with a two-block bot and its owner's simulator client, who has said hello. */
async function projectWithClient(owner: Awaited<ReturnType<typeof signedIn>>, name: string) {
  const project = await owner.project.create({ name, timeZone: 'UTC', withDemoBot: false });
  await owner.botSchema.save({
    projectId: project.id,
    expectedRevision: 0,
    schema: {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        { id: 1, kind: 'start', text: 'Hi #{name}', trigger: { alternatives: '' }, formula: 'step = 1' },
        { id: 2, kind: 'state', text: 'Block two', buttons: [{ text: 'Yes' }] },
      ],
      arrows: [],
    },
  });
  await owner.simulator.send({ projectId: project.id, text: 'hello' });
  const { clientId } = await owner.simulator.state({ projectId: project.id });
  return { projectId: project.id, clientId: clientId! };
}

describe('the client profile', () => {
  it('pages a long history backwards by message id, oldest first in each page, marks and states kept', async () => {
    const owner = await signedIn('pager@example.com');
    const { projectId, clientId } = await projectWithClient(owner, 'Pager');
    for (let i = 0; i < 120; i++)
      await storeMessage(db, { projectId, clientId, direction: 'in', text: `m${i}`, messageFromOutside: 1 });
    await storeMessage(db, {
      projectId,
      clientId,
      direction: 'out',
      text: '<b>not markup</b>',
      attachments: [{ type: 'image', url: 'https://example.com/a.png' }],
      buttons: { hint: 'pick', buttons: [{ type: 'reply', text: 'Yes' }] },
      messageFromOutside: 2,
      delivered: false,
      error: 'chat not found',
    });
    const first = await owner.clients.history({ projectId, clientId, limit: 50 });
    expect(first.messages).toHaveLength(50);
    expect(first.messages.at(-1)).toMatchObject({
      direction: 'out',
      text: '<b>not markup</b>',
      attachments: [{ type: 'image', url: 'https://example.com/a.png' }],
      buttons: [{ text: 'Yes' }],
      messageFromOutside: 2,
      delivered: false,
      error: 'chat not found',
    });
    const seen = [...first.messages];
    let cursor = first.olderCursor;
    while (cursor) {
      const page = await owner.clients.history({ projectId, clientId, limit: 50, before: cursor });
      seen.unshift(...page.messages);
      cursor = page.olderCursor;
    }
    expect(seen.map((m) => m.text)).toEqual([
      'hello',
      'Hi pager',
      ...Array.from({ length: 120 }, (_, i) => `m${i}`),
      '<b>not markup</b>',
    ]);
    const ids = seen.map((m) => BigInt(m.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
  });

  it("answers not found for another project's client and names a bad cursor", async () => {
    const owner = await signedIn('iso@example.com');
    const mine = await projectWithClient(owner, 'Mine');
    const theirs = await projectWithClient(await signedIn('theirs@example.com'), 'Theirs');
    await expect(
      owner.clients.history({ projectId: mine.projectId, clientId: theirs.clientId }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      owner.clients.history({ projectId: mine.projectId, clientId: mine.clientId, before: 'x; drop' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('before') });
  });
});
