import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CHANNEL_DESCRIPTORS } from '@/lib/channels/descriptors';

/**
 * A channel kind's name is its own folders' business (issue 51): outside
 * `server/channels/<kind>/`, `lib/<kind>/`, `lib/channels/` and `components/channels/<kind>/`,
 * non-test code asks the descriptors (lib/channels/descriptors.ts) or the modules
 * (server/channels/modules.ts) instead of naming a kind: no quoted kind name (`kind === 'tg'`,
 * `'chatapp'`), no `CLIENT_TYPES.<kind>`. Comments are not code. Tests, test support
 * (`testing/`, `fixtures/`, `test-support.ts`), benchmarks and generated code compose kinds on
 * purpose and are not read.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const AREAS = ['app', 'server', 'lib', 'components', 'scripts', 'widget'];
const KINDS = CHANNEL_DESCRIPTORS.map((d) => d.kind) as readonly string[];

/** The same word meaning something else than a kind, where it is that. */
const ALLOWED: readonly { file: string; word: string; why: string }[] = [
  {
    file: 'lib/history-message.ts',
    word: 'telephony',
    why: "a message's source: message_from_outside 5, what a caller said (bot-semantics §3)",
  },
  {
    file: 'components/simulator/log-entry.ts',
    word: 'telephony',
    why: "the same source's word in the simulator's log",
  },
];

const ownFolder = (file: string) =>
  file.startsWith('lib/channels/') ||
  KINDS.some(
    (k) =>
      file.startsWith(`server/channels/${k}/`) ||
      file.startsWith(`lib/${k}/`) ||
      file.startsWith(`components/channels/${k}/`),
  );

const read = (file: string) =>
  /\.(tsx?|mjs)$/.test(file) &&
  !/(\.test|\.spec|test-support)\.tsx?$/.test(file) &&
  !/(^|\/)(testing|fixtures|generated|node_modules)\//.test(file) &&
  !ownFolder(file);

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    const file = path.relative(ROOT, full);
    return read(file) ? [file] : [];
  });
}

/** Each kind named in a file's code: `file:line: what`. */
function kindNames(file: string, text: string, kinds: readonly string[] = KINDS): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node) => {
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      kinds.includes(node.text) &&
      !ALLOWED.some((a) => a.file === file && a.word === node.text)
    )
      at(node, `'${node.text}'`);
    if (
      ts.isPropertyAccessExpression(node) &&
      node.expression.getText(source) === 'CLIENT_TYPES' &&
      kinds.includes(node.name.text)
    )
      at(node, `CLIENT_TYPES.${node.name.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('channel kinds are named only in their own folders', () => {
  it('finds no kind name in non-test code elsewhere', () => {
    const files = AREAS.flatMap((area) => sourceFiles(path.join(ROOT, area)));
    expect(files.length).toBeGreaterThan(300);
    const named = files.flatMap((file) => kindNames(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(named, 'ask lib/channels/descriptors.ts or server/channels/modules.ts instead').toEqual([]);
  });

  it('finds a planted one, a quoted name and a CLIENT_TYPES branch, and reads no comment', () => {
    const planted = [
      "// kind === 'tg' in a comment",
      "if (channel.kind === 'tg') send();",
      'const t = CLIENT_TYPES.chatapp;',
      "const word = 'tgx';",
    ].join('\n');
    expect(kindNames('server/x.ts', planted)).toEqual([
      "server/x.ts:2: 'tg'",
      'server/x.ts:3: CLIENT_TYPES.chatapp',
    ]);
  });
});
