import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_FROM } from '@/lib/history-message';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getClientVariables } from '@/server/contacts/client-variables-service';
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
      arrows: [{ id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 1, unit: 'hours' } }],
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

describe('the client profile', () => {
  it('shows the client, the current block, variables by scope, the deal, submissions, lists and the member', async () => {
    const owner = await signedIn('shows@example.com');
    const { projectId, clientId } = await projectWithClient(owner, 'Shows');
    await db.projectConstant.create({ data: { projectId, name: 'shop', value: 'Acme' } });
    const list = await db.clientList.create({ data: { projectId, name: 'VIP' } });
    await db.clientListMember.create({ data: { projectId, listId: list.id, clientId } });
    const funnel = await db.crmFunnel.create({ data: { projectId, name: 'Sales' } });
    const state = await db.crmState.create({ data: { projectId, funnelId: funnel.id, name: 'Lead' } });
    await db.deal.updateMany({ where: { clientId, closedAt: null }, data: { stateId: state.id } });
    const member = await db.projectMember.findFirstOrThrow({ where: { projectId } });
    await db.client.update({ where: { id: clientId }, data: { assignedMemberId: member.id } });
    await db.submission.create({ data: { projectId, clientId, blockId: 2, variables: { size: 'M' } } });

    const profile = await owner.clients.profile({ projectId, clientId });
    expect(profile).toMatchObject({
      id: clientId,
      name: 'shows',
      messenger: expect.any(String),
      currentBlock: { id: 1, kind: 'start' },
      variables: { deal: { step: '1' }, client: {}, project: { shop: 'Acme' } },
      deal: { state: { id: state.id, name: 'Lead', funnel: { name: 'Sales' } } },
      submissions: [{ block: { id: 2, name: '' }, variables: { size: 'M' }, kept: false }],
      lists: [{ id: list.id, name: 'VIP' }],
      assignedMember: { id: member.id, email: 'shows@example.com' },
      canDelete: true,
    });
  });

  it("saves, adds and clears variables under the API's limits, naming the variable, writing nothing of a refused batch", async () => {
    const owner = await signedIn('vars@example.com');
    const { projectId, clientId } = await projectWithClient(owner, 'Vars');
    await owner.clients.saveVariables({
      projectId,
      clientId,
      variables: { 'client.email': 'ann@example.com', city: 'Paris', step: null },
    });
    expect(await getClientVariables(db, projectId, clientId)).toEqual({
      city: 'Paris',
      'client.email': 'ann@example.com',
    });
    const refused = [
      [{ 'project.shop': 'x' }, '"project.shop" is a project constant'],
      [{ ['n'.repeat(501)]: 'x' }, 'longer than 500 characters'],
      [{ city: 'x'.repeat(100_001) }, 'The value of "city" has 100001 characters'],
      [{ 'client.': 'x' }, '"client." is not a variable name'],
    ] as const;
    for (const [variables, message] of refused) {
      const error = await owner.clients
        .saveVariables({ projectId, clientId, variables: { city: 'Lyon', ...variables } })
        .catch((e) => e);
      expect(error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining(message) });
    }
    // With client.email already saved, 1000 more make 1001.
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`client.v${i}`, 'x']));
    await expect(owner.clients.saveVariables({ projectId, clientId, variables: many })).rejects.toMatchObject(
      {
        code: 'BAD_REQUEST',
        message: expect.stringContaining('at most 1000 variables'),
      },
    );
    await expect(
      owner.clients.saveVariables({ projectId, clientId, variables: { city: 5 as unknown as string } }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('variables.city') });
    expect(await getClientVariables(db, projectId, clientId)).toEqual({
      city: 'Paris',
      'client.email': 'ann@example.com',
    });
  });

  it('sends the client to a block as the CRM: the block runs, the client moves in, the message is marked', async () => {
    const owner = await signedIn('send@example.com');
    const { projectId, clientId } = await projectWithClient(owner, 'Send');
    expect(await owner.clients.sendToBlock({ projectId, clientId, blockId: 2 })).toEqual({
      currentBlockId: 2,
      sent: 1,
    });
    expect((await owner.clients.profile({ projectId, clientId })).currentBlock).toMatchObject({ id: 2 });
    const last = (await owner.clients.history({ projectId, clientId })).messages.at(-1);
    expect(last).toMatchObject({
      direction: 'out',
      text: 'Block two',
      buttons: [{ text: 'Yes' }],
      messageFromOutside: MESSAGE_FROM.crm,
    });
    await expect(owner.clients.sendToBlock({ projectId, clientId, blockId: 99 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Block 99 does not exist in this bot.',
    });
    // A paused bot enters no block: the profile says so, and sending is refused with the reason.
    await db.client.update({ where: { id: clientId }, data: { botPausedAt: new Date() } });
    expect((await owner.clients.profile({ projectId, clientId })).botPaused).toBe(true);
    await expect(owner.clients.sendToBlock({ projectId, clientId, blockId: 1 })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('The bot is paused for this client'),
    });
  });

  it('resets the dialogue: no block, the deal closed and empty, timers cancelled, history and profile kept', async () => {
    const owner = await signedIn('reset@example.com');
    const { projectId, clientId } = await projectWithClient(owner, 'Reset');
    await owner.clients.saveVariables({
      projectId,
      clientId,
      variables: { 'client.email': 'r@example.com' },
    });
    expect(await db.scheduledSend.count({ where: { clientId, status: 'pending' } })).toBe(1);
    const before = await owner.clients.history({ projectId, clientId });

    expect(await owner.clients.reset({ projectId, clientId })).toEqual({ cancelledSends: 1 });
    const profile = await owner.clients.profile({ projectId, clientId });
    expect(profile).toMatchObject({
      currentBlock: null,
      deal: null,
      closedDeals: 1,
      variables: { deal: {}, client: { email: 'r@example.com' } },
    });
    expect(await db.scheduledSend.count({ where: { clientId, status: 'pending' } })).toBe(0);
    expect(await db.dealVariable.count({ where: { deal: { clientId } } })).toBe(0);
    expect(await owner.clients.history({ projectId, clientId })).toEqual(before);
    // The next message starts the bot again, as a new client's would.
    await owner.simulator.send({ projectId, text: 'again' });
    expect((await owner.clients.profile({ projectId, clientId })).currentBlock).toMatchObject({ id: 1 });
  });

  it('lets owners and admins delete a client, not operators', async () => {
    const owner = await signedIn('del@example.com');
    const { projectId, clientId } = await projectWithClient(owner, 'Del');
    const operator = await signedIn('op@example.com');
    await db.projectMember.create({
      data: { projectId, userId: 'u-op@example.com', email: 'op@example.com', role: 'operator' },
    });
    expect((await operator.clients.profile({ projectId, clientId })).canDelete).toBe(false);
    await expect(operator.clients.delete({ projectId, clientId })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await owner.clients.delete({ projectId, clientId });
    await expect(owner.clients.profile({ projectId, clientId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(owner.clients.delete({ projectId, clientId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("answers not found for another project's client in every procedure and changes nothing of it", async () => {
    const owner = await signedIn('isolated@example.com');
    const mine = await projectWithClient(owner, 'Mine too');
    const theirs = await projectWithClient(await signedIn('others@example.com'), 'Others');
    const input = { projectId: mine.projectId, clientId: theirs.clientId };
    const calls = [
      () => owner.clients.profile(input),
      () => owner.clients.history(input),
      () => owner.clients.saveVariables({ ...input, variables: { city: 'x' } }),
      () => owner.clients.sendToBlock({ ...input, blockId: 1 }),
      () => owner.clients.reset(input),
      () => owner.clients.delete(input),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const client = await db.client.findUniqueOrThrow({ where: { id: theirs.clientId } });
    expect(client.currentBlockId).toBe(1);
    expect(await getClientVariables(db, theirs.projectId, theirs.clientId)).toEqual({ step: '1' });
  });
});
