import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT, parseBotSchema, serializeBotSchema } from '@/lib/schema';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createCaller } from './root';
import { signedInCaller } from './testing/signed-in';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

const signedIn = (email: string) => signedInCaller(tdb.prisma, email);

describe('the web app API checks the session and project membership', () => {
  it('refuses callers without a session', async () => {
    const anonymous = createCaller({ db: tdb.prisma, session: null });
    await expect(anonymous.project.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('gives a member their project and a non-member nothing of it', async () => {
    const alice = await signedIn('alice@example.com');
    const bob = await signedIn('bob@example.com');
    const first = await alice.project.ensureFirst({ timeZone: 'Europe/Paris' });
    expect(first).toMatchObject({ name: 'My first bot', timeZone: 'Europe/Paris' });
    expect((await alice.project.ensureFirst({ timeZone: 'UTC' })).id).toBe(first.id);
    expect(await alice.project.list()).toHaveLength(1);
    const key = await alice.apiKey.create({ projectId: first.id, name: 'k', canDeleteClients: false });

    expect(await bob.project.list()).toEqual([]);
    const calls = [
      () => bob.project.get({ projectId: first.id }),
      () => bob.project.rename({ projectId: first.id, name: 'mine now' }),
      () => bob.project.delete({ projectId: first.id }),
      () => bob.apiKey.list({ projectId: first.id }),
      () => bob.apiKey.revoke({ projectId: first.id, keyId: key.id }),
      () => bob.botSchema.get({ projectId: first.id }),
      () => bob.botSchema.export({ projectId: first.id }),
      () => bob.clients.search({ projectId: first.id }),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await alice.project.get({ projectId: first.id })).name).toBe('My first bot');
    expect(await alice.apiKey.list({ projectId: first.id })).toHaveLength(1);
  });

  it('lets owners and admins manage a project and operators only work in it', async () => {
    const olga = await signedIn('olga@example.com');
    const project = await olga.project.create({ name: 'Roles', timeZone: 'UTC', withDemoBot: false });
    const join = async (email: string, role: 'admin' | 'operator') => {
      const caller = await signedIn(email);
      await tdb.prisma.projectMember.create({
        data: { projectId: project.id, userId: `u-${email}`, email, role },
      });
      return caller;
    };
    const adam = await join('adam@example.com', 'admin');
    const otto = await join('otto@example.com', 'operator');
    const projectId = project.id;

    const ownerView = await olga.project.get({ projectId });
    expect(ownerView.webhookSecret).toMatch(/^whsec_/);
    expect((await adam.project.get({ projectId })).webhookSecret).toBe(ownerView.webhookSecret);
    const operatorView = await otto.project.get({ projectId });
    expect(operatorView).toMatchObject({ name: 'Roles', role: 'operator', webhookSecret: null });
    expect(await otto.botSchema.get({ projectId })).toMatchObject({ revision: expect.any(Number) });
    // Operators work with the clients: the Clients tab's search is theirs too.
    await tdb.prisma.client.create({
      data: { projectId, platformId: '42', clientType: 1, name: '100% Ann' },
    });
    const found = await otto.clients.search({ projectId, query: '100%' });
    expect(found.clients.map((c) => c.name)).toEqual(['100% Ann']);
    await expect(otto.clients.search({ projectId, query: 'x'.repeat(10_000) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });

    const managing = [
      () => otto.project.rename({ projectId, name: 'mine' }),
      () => otto.project.updateSettings({ projectId, webhookUrl: 'https://evil.example/hook' }),
      () => otto.project.rotateWebhookSecret({ projectId }),
      () => otto.project.delete({ projectId }),
      () => otto.apiKey.list({ projectId }),
      () => otto.apiKey.create({ projectId, name: 'k', canDeleteClients: true }),
    ];
    for (const call of managing) await expect(call()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await olga.project.get({ projectId })).webhookUrl).toBeNull();

    await adam.project.updateSettings({ projectId, webhookUrl: 'https://hooks.example/bot' });
    expect(await adam.apiKey.create({ projectId, name: 'crm', canDeleteClients: false })).toMatchObject({
      key: expect.stringMatching(/^bb_/),
    });
    await expect(adam.project.delete({ projectId })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('owner'),
    });
    await olga.project.delete({ projectId });
    expect(await olga.project.list()).toEqual([]);
  });

  it('saves the schema with a revision check and imports files with errors that name the field', async () => {
    const carol = await signedIn('carol@example.com');
    const project = await carol.project.create({ name: 'Schema', timeZone: 'UTC', withDemoBot: false });
    const { revision } = await carol.botSchema.get({ projectId: project.id });
    const schema = { format: BOT_SCHEMA_FORMAT, blocks: [{ id: 1, kind: 'start', text: 'hi' }], arrows: [] };
    const saved = await carol.botSchema.save({ projectId: project.id, schema, expectedRevision: revision });
    expect(saved.revision).toBe(revision + 1);
    // A second tab that still has the old revision is refused, and nothing changes.
    await expect(
      carol.botSchema.save({
        projectId: project.id,
        schema: { ...schema, blocks: [] },
        expectedRevision: revision,
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('changed elsewhere') });
    expect((await carol.botSchema.get({ projectId: project.id })).schema.blocks).toHaveLength(1);

    const badKind = JSON.stringify({
      format: BOT_SCHEMA_FORMAT,
      blocks: [{ id: 1, kind: 'stat' }],
      arrows: [],
    });
    await expect(carol.botSchema.import({ projectId: project.id, json: badKind })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^The file was not imported:\nblocks\[0\]\.kind: /),
    });
    const badArrow = JSON.stringify({
      format: BOT_SCHEMA_FORMAT,
      blocks: [{ id: 1, kind: 'start' }],
      arrows: [{ id: 1, from: 1, to: 9, kind: 'unconditional' }],
    });
    await expect(carol.botSchema.import({ projectId: project.id, json: badArrow })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('arrows[0].to: arrow 1 points to block 9, which does not exist'),
    });
    await expect(carol.botSchema.import({ projectId: project.id, json: '{"format":' })).rejects.toThrow(
      'not valid JSON',
    );
    const { json } = await carol.botSchema.export({ projectId: project.id });
    const parsed = parseBotSchema(JSON.parse(json));
    expect(parsed.ok && serializeBotSchema(parsed.value)).toBe(json);
  });
});
