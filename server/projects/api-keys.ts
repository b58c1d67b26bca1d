import { hash as oneShotHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '@/server/db/client-type';
import type { Plan } from '@/server/db/generated/client';
import { findLiveKeyRow } from '@/server/db/row-queries';
import { notFound, parseInput } from '@/server/errors';
import { forgetLiveKey, getLiveKey, type LiveKey, rememberLiveKey } from './live-key-cache';

export const KEY_PREFIX = 'bb_';
const DISPLAY_PREFIX_LENGTH = 10;

export const createApiKeyInput = z.object({
  name: z.string().trim().min(1, 'the key needs a name').max(100),
  canDeleteClients: z.boolean().default(false),
});

export function hashApiKey(key: string): string {
  // One-shot: half the time of createHash's object, on every API call's path.
  return oneShotHash('sha256', key, 'hex');
}

/** Creates a key; the plaintext is returned this once and only its hash is stored. */
export async function createApiKey(db: Db, projectId: number, input: z.input<typeof createApiKeyInput>) {
  const data = parseInput(createApiKeyInput, input);
  const key = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  const row = await db.apiKey.create({
    data: {
      projectId,
      name: data.name,
      canDeleteClients: data.canDeleteClients,
      hash: hashApiKey(key),
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    },
    select: { id: true, name: true, prefix: true, canDeleteClients: true, createdAt: true },
  });
  return { ...row, key };
}

export async function listApiKeys(db: Db, projectId: number) {
  return db.apiKey.findMany({
    where: { projectId, revokedAt: null },
    orderBy: { createdAt: 'desc' },
    select: { id: true, name: true, prefix: true, canDeleteClients: true, createdAt: true, lastUsedAt: true },
  });
}

export async function revokeApiKey(db: Db, projectId: number, keyId: number) {
  const { count } = await db.apiKey.updateMany({
    where: { id: keyId, projectId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw notFound(`API key ${keyId} does not exist in this project or is already revoked.`);
  forgetLiveKey(keyId);
}

export interface AuthenticatedKey {
  keyId: number;
  projectId: number;
  canDeleteClients: boolean;
  plan: Plan;
  /** The project's origins allowed to call the API from a browser (CORS), cached with the key. */
  allowedOrigins: readonly string[];
}

const LAST_USED_PRECISION_MS = 60_000;

/**
 * Finds the live key for a presented key string; unknown and revoked keys both give null,
 * so callers cannot tell them apart. Live keys are remembered for a few seconds
 * (live-key-cache.ts), so a busy integrator's calls cost no key lookup.
 */
export async function authenticateApiKey(
  db: Db,
  presented: string,
  now = Date.now(),
): Promise<AuthenticatedKey | null> {
  const live = await lookUpLiveKey(db, presented, now);
  if (!live) return null;
  // Last-used is shown to the minute; skip the write when it is fresh, it is on every call's path.
  if (!usedLately(live, now)) {
    live.lastUsedAt = now;
    await db.apiKey.update({ where: { id: live.keyId }, data: { lastUsedAt: new Date(now) } });
  }
  return authenticated(live);
}

/**
 * authenticateApiKey's answer when this process's cache has the live key and its last use is
 * fresh (nothing to write); undefined: call authenticateApiKey. The public API's hot path takes
 * it without a promise (with AsyncLocalStorage in use, each costs a hook on Node 20).
 */
export function cachedApiKey(presented: string, now = Date.now()): AuthenticatedKey | undefined {
  const hash = presentedHash(presented);
  const live = hash === null ? undefined : getLiveKey(hash, now);
  return live && usedLately(live, now) ? authenticated(live) : undefined;
}

const usedLately = (live: LiveKey, now: number) =>
  live.lastUsedAt !== null && now - live.lastUsedAt <= LAST_USED_PRECISION_MS;

const authenticated = (live: LiveKey): AuthenticatedKey => ({
  keyId: live.keyId,
  projectId: live.projectId,
  canDeleteClients: live.canDeleteClients,
  plan: live.plan,
  allowedOrigins: live.allowedOrigins,
});

/** The hash of a string that could be a key; null for one that cannot (not looked up). */
const presentedHash = (presented: string): string | null =>
  presented.startsWith(KEY_PREFIX) && presented.length <= 200 ? hashApiKey(presented) : null;

/**
 * The live key for a presented key string, from the cache or the database, without counting
 * it as used: a CORS preflight asks which origins the key's project allows.
 */
export async function lookUpLiveKey(db: Db, presented: string, now = Date.now()): Promise<LiveKey | null> {
  const hash = presentedHash(presented);
  if (hash === null) return null;
  const cached = getLiveKey(hash, now);
  if (cached) return cached;
  const found = await findLiveKey(db, hash);
  if (found) rememberLiveKey(hash, found, now);
  return found;
}

/** The key with its project's plan, in one query. */
async function findLiveKey(db: Db, hash: string): Promise<LiveKey | null> {
  const row = await findLiveKeyRow(db, hash);
  if (!row) return null;
  if (!timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  return {
    keyId: row.id,
    projectId: row.projectId,
    canDeleteClients: row.canDeleteClients,
    plan: row.plan,
    allowedOrigins: row.allowedOrigins,
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
  };
}
