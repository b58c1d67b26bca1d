import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOutgoingCalls } from './network-imports';

const ROOTS = ['app', 'server', 'lib', 'components', 'cli', 'scripts'];
const SKIP = [path.join('server', 'http'), path.join('server', 'db', 'generated'), 'node_modules'];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir) || SKIP.some((s) => dir.startsWith(s))) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|mjs)$/.test(e.name) ? [full] : [];
  });
}

describe('outgoing HTTP goes only through server/http', () => {
  it('the checker finds forbidden calls and lets servers and browser fetches be', () => {
    const bad = "import { request } from 'undici';\nconst r = await fetch(url);\nhttps.get('https://x');";
    expect(findOutgoingCalls(bad, { serverCode: true }).map((f) => f.line)).toEqual([1, 2, 3]);
    expect(
      findOutgoingCalls("const s = http.createServer();\nawait fetch('/api/trpc')", { serverCode: false }),
    ).toEqual([]);
    expect(findOutgoingCalls('// fetch(url) in a comment', { serverCode: true })).toEqual([]);
    // A server asking itself, marked so; the mark covers its own line only.
    const own = 'http.get(self, done); /* own server */\nhttp.get(url, done);';
    expect(findOutgoingCalls(own, { serverCode: true }).map((f) => f.line)).toEqual([2]);
  });

  it('no other module calls out directly', () => {
    const findings = ROOTS.flatMap(sourceFiles).flatMap((file) => {
      const serverCode =
        !file.startsWith('components') &&
        !file.startsWith('app') &&
        !file.includes('.test.') &&
        !file.includes(`${path.sep}testing${path.sep}`);
      return findOutgoingCalls(fs.readFileSync(file, 'utf8'), { serverCode }).map(
        (f) => `${file}:${f.line} ${f.what}: ${f.text}`,
      );
    });
    expect(findings).toEqual([]);
  });
});
