import { parseMarkdown } from '@/lib/knowledge/parse-markdown';
import { parseText } from '@/lib/knowledge/parse-text';
import type { Section } from '@/lib/knowledge/sections';
import { parsePdf } from './parse-pdf';

/** The formats a document's bytes come in (an added page is fetched, then one of these). */
export type ContentKind = 'text' | 'markdown' | 'html' | 'pdf';

export interface ParsedDocument {
  sections: Section[];
  /** A title the document gives itself (an HTML page's <title>), if any. */
  title?: string;
}

export async function parseDocument(kind: ContentKind, bytes: Uint8Array): Promise<ParsedDocument> {
  if (kind === 'pdf') return { sections: await parsePdf(bytes) };
  const text = new TextDecoder().decode(bytes);
  if (kind === 'markdown') return { sections: parseMarkdown(text) };
  if (kind === 'html') {
    // Loaded on first use: the worker imports this module (the indexing job) at its start.
    const { parseHtml } = await import('@/lib/knowledge/parse-html');
    const page = parseHtml(text);
    return { sections: page.sections, title: page.title || undefined };
  }
  return { sections: parseText(text) };
}
