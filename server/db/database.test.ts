import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from './database';

const MiB = 1024 * 1024;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tmpDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-db-'));
  dirs.push(dir);
  return path.join(dir, 'pglite');
}

it('the embedded database caches 32 MB of pages, not PostgreSQL’s 128 MB that the process would hold at rest', async () => {
  const database = await openDatabase({ mode: 'embedded', dataDir: tmpDataDir() });
  try {
    const { rows } = await database.pglite!.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(rows[0].shared_buffers).toBe('32MB');
  } finally {
    await database.close();
  }
});

it('a new data directory is created in a process of its own: the server never holds initdb’s memory', async () => {
  const dataDir = tmpDataDir();
  const database = await openDatabase({ mode: 'embedded', dataDir });
  try {
    // Creating one in this process left about 600 MiB of WebAssembly memory here until a full GC.
    expect(process.memoryUsage().external).toBeLessThan(300 * MiB);
    expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    const { rows } = await database.pglite!.query<{ n: number }>('SELECT count(*)::int AS n FROM "Project"');
    expect(rows[0].n).toBe(0);
  } finally {
    await database.close();
  }
});
