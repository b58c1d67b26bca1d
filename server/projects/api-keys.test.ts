import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { authenticateApiKey, createApiKey, hashApiKey, listApiKeys, revokeApiKey } from './api-keys';
import { KEY_CACHE_TTL_MS } from './live-key-cache';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

describe('API keys', () => {
  it('shows a key once, stores only its hash, lists it and authenticates it', async () => {
    const db = tdb.prisma;
    const project = await createProject(db, { name: 'Keys' });
    const created = await createApiKey(db, project.id, { name: 'CRM', canDeleteClients: true });
    expect(created.key).toMatch(/^bb_[A-Za-z0-9_-]{32}$/);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.hash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(row.prefix).toBe(created.key.slice(0, 10));

    const listed = await listApiKeys(db, project.id);
    expect(listed).toEqual([
      expect.objectContaining({ name: 'CRM', prefix: row.prefix, canDeleteClients: true, lastUsedAt: null }),
    ]);
    expect(listed[0]).not.toHaveProperty('hash');

    expect(await authenticateApiKey(db, created.key)).toEqual({
      keyId: created.id,
      projectId: project.id,
      canDeleteClients: true,
      plan: 'free',
      allowedOrigins: [],
    });
    expect((await listApiKeys(db, project.id))[0].lastUsedAt).toBeInstanceOf(Date);
  });

  it('refuses revoked and unknown keys alike, at once', async () => {
    const db = tdb.prisma;
    const project = await createProject(db, { name: 'Revoke' });
    const created = await createApiKey(db, project.id, { name: 'Old' });
    expect(await authenticateApiKey(db, created.key)).not.toBeNull();
    await revokeApiKey(db, project.id, created.id);
    expect(await authenticateApiKey(db, created.key)).toBeNull();
    expect(await authenticateApiKey(db, `${created.key.slice(0, -1)}x`)).toBeNull();
    expect(await authenticateApiKey(db, 'not-a-key')).toBeNull();
    expect(await listApiKeys(db, project.id)).toEqual([]);
    await expect(revokeApiKey(db, project.id, created.id)).rejects.toThrow('already revoked');
  });

  it('stops a key revoked by another instance within the cache time, and sees plan changes as soon', async () => {
    const db = tdb.prisma;
    const project = await createProject(db, { name: 'Elsewhere' });
    const created = await createApiKey(db, project.id, { name: 'Remote' });
    const t0 = Date.now();
    expect(await authenticateApiKey(db, created.key, t0)).toMatchObject({ plan: 'free' });
    // Another instance revokes the key and upgrades the plan: this instance's memory is not told.
    await db.apiKey.update({ where: { id: created.id }, data: { revokedAt: new Date() } });
    await db.project.update({ where: { id: project.id }, data: { plan: 'business' } });
    expect(await authenticateApiKey(db, created.key, t0 + KEY_CACHE_TTL_MS - 1)).toMatchObject({
      plan: 'free',
    });
    expect(await authenticateApiKey(db, created.key, t0 + KEY_CACHE_TTL_MS)).toBeNull();

    const live = await createApiKey(db, project.id, { name: 'Live' });
    expect(await authenticateApiKey(db, live.key, t0)).toMatchObject({ plan: 'business' });
    await db.project.update({ where: { id: project.id }, data: { plan: 'ai' } });
    expect(await authenticateApiKey(db, live.key, t0 + KEY_CACHE_TTL_MS)).toMatchObject({ plan: 'ai' });
  });

  it('records the last use once a minute at most, cached or not', async () => {
    const db = tdb.prisma;
    const project = await createProject(db, { name: 'Usage' });
    const created = await createApiKey(db, project.id, { name: 'Busy' });
    const lastUsed = async () =>
      (await db.apiKey.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt?.getTime();
    const t0 = Date.now();
    await authenticateApiKey(db, created.key, t0);
    expect(await lastUsed()).toBe(t0);
    await authenticateApiKey(db, created.key, t0 + 1_000);
    await authenticateApiKey(db, created.key, t0 + 59_000);
    expect(await lastUsed()).toBe(t0);
    await authenticateApiKey(db, created.key, t0 + 61_000);
    expect(await lastUsed()).toBe(t0 + 61_000);
  });

  it('keeps projects apart: a key belongs to one project, and keys cannot be revoked across projects', async () => {
    const db = tdb.prisma;
    const a = await createProject(db, { name: 'A' });
    const b = await createProject(db, { name: 'B' });
    const keyA = await createApiKey(db, a.id, { name: 'A key' });
    const keyB = await createApiKey(db, b.id, { name: 'B key' });
    expect((await authenticateApiKey(db, keyA.key))?.projectId).toBe(a.id);
    expect((await listApiKeys(db, a.id)).map((k) => k.name)).toEqual(['A key']);
    await expect(revokeApiKey(db, a.id, keyB.id)).rejects.toThrow('does not exist in this project');
    expect(await authenticateApiKey(db, keyB.key)).not.toBeNull();
  });
});
