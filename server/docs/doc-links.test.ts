import { describe, expect, it } from 'vitest';
import { listDocs, readDoc } from './doc-files';

/**
 * A doc that names another doc links to it (issue 52, item 17): "(bot-semantics.md)" as plain text
 * sends the reader searching. A reference is a `name.md` (or `docs/…`, `../…`) that is one of the
 * docs, outside code and outside a link.
 */
const DOCS = listDocs();
const byName = new Map<string, string[]>();
for (const doc of DOCS) {
  const name = doc.split('/').pop() ?? doc;
  byName.set(name, [...(byName.get(name) ?? []), doc]);
}

const REFERENCE = /(?<![\w/.\-[`#])((?:\.\.\/|docs\/)?[\w/-]+)\.md\b(?![\w\]`])/g;

function isDoc(from: string, path: string): boolean {
  const plain = path.replace(/^docs\//, '');
  const parts = from.split('/').slice(0, -1);
  for (const part of plain.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return (
    DOCS.includes(parts.join('/')) ||
    DOCS.includes(plain) ||
    byName.get(plain.split('/').pop() ?? '')?.length === 1
  );
}

/** The doc names in a doc's prose that are not links: `line: name`. */
function bareReferences(from: string, markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').flatMap((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced || line.startsWith('```')) return [];
    const prose = line.replace(/`[^`]*`|\[[^\]]*\]\([^)]*\)/g, ' ');
    return [...prose.matchAll(REFERENCE)].filter((m) => isDoc(from, m[1])).map((m) => `${i + 1}: ${m[0]}`);
  });
}

describe('docs link the docs they name', () => {
  it('no doc names another without linking it', () => {
    const bare = DOCS.flatMap((doc) =>
      bareReferences(doc, readDoc(doc) ?? '').map((ref) => `${doc}.md:${ref}`),
    );
    expect(bare, 'write [name.md](path.md)').toEqual([]);
  });

  it('finds a bare one, and leaves links, code and other files alone', () => {
    expect(
      bareReferences(
        'builder',
        'What a bot can do (bot-semantics.md); see [clients.md](clients.md), `docs/formula.md`, README.md, docs/ai.md.',
      ),
    ).toEqual(['1: bot-semantics.md', '1: docs/ai.md']);
  });
});
