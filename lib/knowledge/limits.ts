/**
 * The knowledge base's limits (docs/knowledge-base.md), shared by the server and the screen.
 */

/** The largest document uploaded or fetched: bigger ones are refused before being read whole. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

export const SOURCE_KINDS = ['text', 'markdown', 'pdf', 'html', 'url'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Characters per chunk: the default suits embedding models of 512 tokens and more. */
export const DEFAULT_CHUNK_SIZE = 1200;
export const MIN_CHUNK_SIZE = 200;
export const MAX_CHUNK_SIZE = 8000;

/** Most results a search returns. */
export const MAX_SEARCH_LIMIT = 50;

export const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
