import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openDatabase } from './database';

it('the embedded database caches 32 MB of pages, not PostgreSQL’s 128 MB that the process would hold at rest', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-db-'));
  const database = await openDatabase({ mode: 'embedded', dataDir });
  try {
    const { rows } = await database.pglite!.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(rows[0].shared_buffers).toBe('32MB');
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
