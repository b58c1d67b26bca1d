import { expect, it } from 'vitest';
import { DOC_SECTIONS } from '@/lib/docs/doc-index';
import { listDocs, readDoc } from './doc-files';

it('lists every page of docs/ exactly once in the table of contents, each with a title', () => {
  const listed = DOC_SECTIONS.flatMap((s) => s.entries.map((e) => e.doc)).filter((d) => !d.startsWith('/'));
  expect([...listed].sort()).toEqual(listDocs());
  for (const doc of listed) expect(readDoc(doc), doc).toMatch(/^# .+/);
});
