import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '@/server/db/database';
import { createProcessEnv } from '@/server/db/test-support';
import { runTsx } from '@/server/testing/run-tsx';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-cli-admin-'));
let processEnv: Awaited<ReturnType<typeof createProcessEnv>>;

beforeAll(async () => {
  processEnv = await createProcessEnv(tmp);
});
afterAll(async () => {
  await processEnv?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The database the CLI opens, for a moment (an embedded one takes one process at a time). */
async function withInstanceDb<T>(
  run: (db: Awaited<ReturnType<typeof openDatabase>>['prisma']) => Promise<T>,
) {
  const database = processEnv.env.DATABASE_URL
    ? await openDatabase({ mode: 'server', url: processEnv.env.DATABASE_URL })
    : await openDatabase({
        mode: 'embedded',
        dataDir: path.join(processEnv.env.BLOCKBOT_DATA_DIR, 'pglite'),
      });
  try {
    return await run(database.prisma);
  } finally {
    await database.close();
  }
}

it('makes a disabled account an enabled admin again, and names an unknown address', {
  timeout: 120_000,
}, async () => {
  await withInstanceDb((db) =>
    db.user.create({
      data: { id: 'u1', email: 'lost@example.com', name: 'Lost', disabledAt: new Date() },
    }),
  );
  const done = await runTsx('cli/main.ts', ['instance-admin', 'Lost@Example.com'], processEnv.env);
  expect(done).toMatchObject({ code: 0, stdout: expect.stringContaining('lost@example.com is an admin') });
  expect(
    await withInstanceDb((db) =>
      db.user.findUniqueOrThrow({
        where: { email: 'lost@example.com' },
        select: { instanceRole: true, disabledAt: true },
      }),
    ),
  ).toEqual({ instanceRole: 'admin', disabledAt: null });

  const unknown = await runTsx('cli/main.ts', ['instance-admin', 'nobody@example.com'], processEnv.env);
  expect(unknown).toMatchObject({
    code: 1,
    stderr: 'error: No account has the e-mail nobody@example.com.\n',
  });
});
