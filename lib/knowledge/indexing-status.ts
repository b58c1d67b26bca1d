/** How often the Knowledge tab reads the documents again while one is being indexed by its job. */
export const INDEXING_REFRESH_MS = 2_000;

/**
 * The documents list's refresh interval: every INDEXING_REFRESH_MS while a document is
 * `indexing` (the `knowledge.index` job embeds it, docs/knowledge-base.md), none otherwise.
 */
export function indexingRefresh(documents: readonly { status: string }[] | undefined): number | false {
  return documents?.some((d) => d.status === 'indexing') ? INDEXING_REFRESH_MS : false;
}
