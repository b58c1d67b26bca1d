import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { createApiKey } from '@/server/projects/api-keys';
import { createProject } from '@/server/projects/project-service';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { startApiServer } from './api-server';

/**
 * What most public API tests start from: a fresh database with one business project whose bot
 * greets every new client ("Welcome"), an API key for it, and the API served over real HTTP.
 * The key's rate limit is lifted, so tests that send many calls measure what they mean to.
 */
export async function startApiProject(name: string) {
  process.env.BLOCKBOT_API_RATE_LIMIT = '100000';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-api-'));
  // biome-ignore lint/correctness/useHookAtTopLevel: a test helper named like a hook, not a React hook
  const app = await useFreshAppDatabase(tmp);
  const db = await getDb();
  const server = await startApiServer();
  const projectId = (
    await createProject(db, { name, plan: 'business', owner: { email: 'owner@example.com' } })
  ).id;
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Welcome', trigger: { alternatives: '' } }],
    arrows: [],
  });
  const key = (await createApiKey(db, projectId, { name: 'main' })).key;
  return {
    db,
    server,
    projectId,
    key,
    async close() {
      await server.close();
      await app.dispose();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
