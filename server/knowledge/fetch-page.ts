import { MAX_DOCUMENT_BYTES, megabytes } from '@/lib/knowledge/limits';
import { invalid } from '@/server/errors';
import { SafeHttpError, safeFetch } from '@/server/http';
import type { ContentKind } from './parse-document';

export interface FetchedPage {
  kind: ContentKind;
  bytes: Uint8Array;
  /** The address after redirects. */
  url: string;
}

/** Content types a page may be served as, to the format it is read in. */
const KINDS: [RegExp, ContentKind][] = [
  [/^text\/html|^application\/xhtml\+xml/, 'html'],
  [/^application\/pdf/, 'pdf'],
  [/^text\/markdown|^text\/x-markdown/, 'markdown'],
  [/^text\/plain/, 'text'],
];

/**
 * A web page for the knowledge base, fetched through server/http (its address checked, a few
 * redirects followed and checked again, the body cut at MAX_DOCUMENT_BYTES).
 */
export async function fetchPage(url: string): Promise<FetchedPage> {
  let response: Awaited<ReturnType<typeof safeFetch>>;
  try {
    response = await safeFetch(url, {
      headers: { accept: 'text/html, application/pdf;q=0.9, text/markdown;q=0.8, text/plain;q=0.7' },
      maxBytes: MAX_DOCUMENT_BYTES,
      followRedirects: 5,
      timeoutMs: 30_000,
    });
  } catch (error) {
    if (error instanceof SafeHttpError && error.code === 'too_large')
      throw invalid(
        `The page is larger than ${megabytes(MAX_DOCUMENT_BYTES)}; save it and upload a part.`,
        'url',
      );
    if (error instanceof SafeHttpError)
      throw invalid(`The page could not be fetched: ${error.message}`, 'url');
    throw error;
  }
  if (response.status < 200 || response.status > 299)
    throw invalid(`The page answered with HTTP ${response.status}; check the address.`, 'url');
  const type = (response.headers['content-type'] ?? '').toLowerCase();
  const kind = KINDS.find(([pattern]) => pattern.test(type))?.[1];
  if (!kind)
    throw invalid(
      `The page is "${type || 'of no content type'}"; only HTML, PDF, Markdown and plain text pages can be added.`,
      'url',
    );
  return { kind, bytes: response.bytes, url: response.url };
}
