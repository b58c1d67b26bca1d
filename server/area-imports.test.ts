import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * How the top-level areas of `server/` (engine, channels, db, …) may import each other
 * (docs/architecture.md, "Where things live"): the engine imports no channel (the runtime hands
 * it the channel modules' adapters and functions at start, server/engine/channel-port.ts), and no
 * two areas import each other beyond the pairs that already did when this test was written,
 * each to be untangled rather than added to. Tests, test support (`testing/`, `fixtures/`,
 * `test-support.ts`) and
 * generated code are not counted: they compose areas on purpose.
 */

const SERVER = path.join(import.meta.dirname);

/** Pairs of areas that import each other already (a → b, b → a), written `a ↔ b` in name order. */
const KNOWN_MUTUAL = new Set([
  'ai ↔ engine',
  'ai ↔ knowledge',
  'broadcasts ↔ jobs',
  'channels ↔ contacts',
  'channels ↔ jobs',
  'contacts ↔ engine',
  'crm ↔ projects',
  'db ↔ engine',
  'engine ↔ inbox',
  'engine ↔ jobs',
  'engine ↔ projects',
  'engine ↔ secrets',
  'engine ↔ webhooks',
  'jobs ↔ knowledge',
  'jobs ↔ webhooks',
  'projects ↔ secrets',
  'projects ↔ versions',
]);

const counted = (file: string) =>
  /\.tsx?$/.test(file) &&
  !/(\.test|test-support)\.tsx?$/.test(file) &&
  !/(^|\/)(testing|fixtures|generated)\//.test(file);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return counted(path.relative(SERVER, full)) ? [full] : [];
  });
}

/** The area of a file of server/ (its first folder; a file at the top is an area of its own). */
const areaOf = (file: string) =>
  path
    .relative(SERVER, file)
    .split(path.sep)[0]
    .replace(/\.tsx?$/, '');

/** Every import of a file (values and types) that lands in server/, as the file it names. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, false);
  return importedFiles.flatMap(({ fileName }) => {
    if (fileName.startsWith('@/server/')) return [path.join(SERVER, fileName.slice('@/server/'.length))];
    if (fileName.startsWith('.')) {
      const target = path.resolve(path.dirname(file), fileName);
      return target.startsWith(SERVER + path.sep) ? [target] : [];
    }
    return [];
  });
}

/** area → area → the files of the first that import the second. */
function areaImports(): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SERVER)) {
    const from = areaOf(file);
    for (const target of importsOf(file)) {
      const to = areaOf(target);
      if (to === from) continue;
      const row = edges.get(from) ?? new Map<string, string[]>();
      edges.set(from, row);
      row.set(to, [...(row.get(to) ?? []), path.relative(SERVER, file)]);
    }
  }
  return edges;
}

describe('imports between the areas of server/', () => {
  const edges = areaImports();

  it('finds the areas and their imports (a check of the check)', () => {
    expect(edges.get('channels')?.get('engine')?.length).toBeGreaterThan(5);
    expect(edges.get('runtime')?.has('channels')).toBe(true);
  });

  it('the engine imports no channel: it gets them from the runtime', () => {
    expect(edges.get('engine')?.get('channels') ?? []).toEqual([]);
  });

  it('no two areas import each other but the pairs that already did', () => {
    const mutual = new Map<string, string[]>();
    for (const [a, row] of edges)
      for (const [b, files] of row) {
        const back = edges.get(b)?.get(a);
        if (a < b && back) mutual.set(`${a} ↔ ${b}`, [...files, ...back]);
      }
    const found = [...mutual.keys()];
    const added = found
      .filter((pair) => !KNOWN_MUTUAL.has(pair))
      .map((pair) => `${pair}: ${mutual.get(pair)?.join(', ')}`);
    expect(
      added,
      'a new import cycle between two areas: invert one direction (a port the runtime installs)',
    ).toEqual([]);
    // A pair untangled leaves the list, so it cannot come back unseen.
    expect(
      [...KNOWN_MUTUAL].filter((pair) => !mutual.has(pair)),
      'pairs that no longer import each other: remove them from KNOWN_MUTUAL',
    ).toEqual([]);
  });
});
