import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md: SQL text lives in server/db, in the engine's store modules, and in a
// channel kind's own `server/channels/<kind>/sql.ts` only.
const ALLOWED = [path.join('server', 'db'), path.join('server', 'engine', 'store') + path.sep];
const KIND_SQL = /^server[/\\]channels[/\\][^/\\]+[/\\]sql\.ts$/;
const allowed = (file: string) => KIND_SQL.test(file) || ALLOWED.some((dir) => file.startsWith(dir));
const SQL_API =
  /new PreparedStatement\(|\$queryRaw|\$executeRaw|\.query\(\s*[`'"](SELECT|INSERT|UPDATE|DELETE|WITH)\b/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' || e.name === 'testing' ? [] : sourceFiles(full);
    return /\.ts$/.test(e.name) && !e.name.includes('.test.') ? [full] : [];
  });
}

describe('SQL text stays in server/db, server/engine/store/ and server/channels/<kind>/sql.ts', () => {
  it('the checker sees prepared statements and raw queries', () => {
    expect(SQL_API.test('const s = new PreparedStatement(`SELECT 1`);')).toBe(true);
    expect(SQL_API.test('await tx.$queryRaw`SELECT 1`')).toBe(true);
    expect(SQL_API.test('await db.client.findMany({})')).toBe(false);
  });

  it("allows a channel kind's sql.ts and no other channel file", () => {
    expect(allowed(path.join('server', 'channels', 'tg', 'sql.ts'))).toBe(true);
    expect(allowed(path.join('server', 'channels', 'sql.ts'))).toBe(false);
    expect(allowed(path.join('server', 'channels', 'tg', 'updates.ts'))).toBe(false);
    expect(allowed(path.join('server', 'channels', 'tg', 'testing', 'sql.ts'))).toBe(false);
    expect(allowed(path.join('server', 'engine', 'run-state.ts'))).toBe(false);
  });

  it('no other server module writes SQL', () => {
    const offenders = sourceFiles('server')
      .filter((file) => !allowed(file))
      .flatMap((file) =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => (SQL_API.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });
});
