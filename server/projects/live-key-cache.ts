import type { AuthenticatedKey } from './api-keys';

/**
 * Live API keys this process authenticated recently, by hash, so the public API's hot path
 * does not read the key and its project on every call.
 *
 * Correctness across instances: an entry is trusted for KEY_CACHE_TTL_MS at most, so a key
 * revoked on another instance (or a plan or the allowed origins changed there) takes effect here
 * within that time; revoking or changing them on this instance drops the entries at once. Only
 * live keys are kept (an unknown or revoked key always asks the database), and the size is bounded. The map sits on globalThis
 * because Next.js may load this module more than once in one process (once per route bundle),
 * and a revocation made through the app's tRPC route must reach the API route's entries.
 */
export const KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface LiveKey extends AuthenticatedKey {
  /** Epoch ms of the last recorded use, or null: the hot path refreshes it once a minute. */
  lastUsedAt: number | null;
}

interface Entry {
  key: LiveKey;
  expiresAt: number;
}

const globalForKeys = globalThis as unknown as { blockbotLiveKeys?: Map<string, Entry> };
globalForKeys.blockbotLiveKeys ??= new Map();
const entries = globalForKeys.blockbotLiveKeys;

export function getLiveKey(hash: string, now: number): LiveKey | undefined {
  const entry = entries.get(hash);
  if (!entry) return undefined;
  if (entry.expiresAt <= now) {
    entries.delete(hash);
    return undefined;
  }
  return entry.key;
}

export function rememberLiveKey(hash: string, key: LiveKey, now: number): void {
  if (entries.size >= MAX_ENTRIES) {
    // Maps iterate in insertion order: the first entry is the oldest.
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(hash, { key, expiresAt: now + KEY_CACHE_TTL_MS });
}

/** A project's plan or allowed origins changed on this instance: its keys' entries go at once. */
export function forgetProjectKeys(projectId: number): void {
  for (const [hash, entry] of entries) if (entry.key.projectId === projectId) entries.delete(hash);
}

/** Revocation on this instance: the key stops working here at once. */
export function forgetLiveKey(keyId: number): void {
  for (const [hash, entry] of entries) if (entry.key.keyId === keyId) entries.delete(hash);
}
