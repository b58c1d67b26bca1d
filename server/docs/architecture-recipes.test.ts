import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_DESCRIPTORS, CONNECTABLE_KINDS } from '@/lib/channels/descriptors';
import { BLOCK_KINDS } from '@/lib/schema/bot-schema';
import { CHANNEL_KINDS } from '@/server/channels/modules';

/**
 * docs/architecture.md is the map newcomers follow (issue 51, item 7): the files it names exist,
 * and what its recipes say must agree does: the block kinds and the Prisma `BlockKind` enum, the
 * channel descriptors and `ChannelKind`, the module list and the folders holding a module.ts,
 * the Channels tab's sections and the kinds that can be connected.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const doc = read('docs/architecture.md');
const schema = read('prisma/schema.prisma');

const enumValues = (name: string) => {
  const body = new RegExp(`enum ${name} \\{([^}]*)\\}`).exec(schema)?.[1] ?? '';
  return body
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter(Boolean);
};

/** The repository's files, as git knows them (new ones not yet added included). */
const repoFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

/** Backticked paths of files the doc names (a `<kind>` or `*` in one is a pattern, not a file). */
function namedFiles(text: string): string[] {
  return [...text.matchAll(/`([\w./[\]-]+\.(?:tsx?|mjs|md|sql|prisma|json))`/g)]
    .map((m) => m[1])
    .filter((p) => p.includes('/'));
}

describe('docs/architecture.md tells the truth', () => {
  it('every file it names exists (by its path from the root, or a shorter path of one file)', () => {
    const names = namedFiles(doc);
    expect(names.length).toBeGreaterThan(100);
    const missing = names.filter(
      (name) => !fs.existsSync(path.join(ROOT, name)) && !repoFiles.some((f) => f.endsWith(`/${name}`)),
    );
    expect(missing, 'moved or renamed: fix docs/architecture.md').toEqual([]);
  });

  it('the block kinds are the Prisma BlockKind enum (a new kind needs its migration)', () => {
    expect(enumValues('BlockKind').sort()).toEqual([...BLOCK_KINDS].sort());
  });

  it('the channel descriptors are the Prisma ChannelKind enum', () => {
    expect(enumValues('ChannelKind').sort()).toEqual(CHANNEL_DESCRIPTORS.map((d) => d.kind).sort());
  });

  it('the module list is the folders of server/channels holding a module.ts, one a descriptor', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'server/channels'), { withFileTypes: true })
      .filter(
        (e) => e.isDirectory() && fs.existsSync(path.join(ROOT, 'server/channels', e.name, 'module.ts')),
      )
      .map((e) => e.name)
      .sort();
    expect(CHANNEL_KINDS.map((k) => k.kind).sort()).toEqual(folders);
    expect(folders).toEqual(CHANNEL_DESCRIPTORS.map((d) => d.kind).sort());
  });

  it('the Channels tab has a section for each kind that can be connected, in its folder', () => {
    const sections = read('components/channels/sections.ts');
    const keys = [...sections.matchAll(/^ {2}(\w+): \w+,$/gm)].map((m) => m[1]);
    expect(keys.sort()).toEqual([...CONNECTABLE_KINDS].sort());
    for (const kind of keys) expect(sections).toContain(`from './${kind}/${kind}-section'`);
  });

  it('the channel recipe names every file a new kind touches outside its folders', () => {
    const recipe = doc.slice(doc.indexOf('## Adding a messenger channel'));
    for (const file of [
      'lib/channels/descriptors.ts',
      'prisma/schema.prisma',
      'server/channels/modules.ts',
      'components/channels/sections.ts',
    ])
      expect(recipe).toContain(`\`${file}\``);
  });
});

describe('the doc check', () => {
  it('reads the named files of a text, not patterns or bare names', () => {
    expect(
      namedFiles('`server/a.ts`, `server/channels/<kind>/env.ts`, `env.ts`, `lib/x/y.md`, `docs/*.md`'),
    ).toEqual(['server/a.ts', 'lib/x/y.md']);
  });
});
