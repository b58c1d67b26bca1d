import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const DOCS_DIR = path.join(process.cwd(), 'docs');

/** Every Markdown file under docs/, as a path without `.md` (`builder`, `channels/tg`). */
export function listDocs(): string[] {
  return readdirSync(DOCS_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -3).split(path.sep).join('/'))
    .sort();
}

/** A doc's Markdown, or null when docs/ has no such file. */
export function readDoc(doc: string): string | null {
  if (!listDocs().includes(doc)) return null;
  return readFileSync(path.join(DOCS_DIR, `${doc}.md`), 'utf8');
}
