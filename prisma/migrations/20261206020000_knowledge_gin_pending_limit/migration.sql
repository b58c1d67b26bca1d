-- Written by hand (Prisma's schema has no index storage parameters, so its diff leaves these
-- alone). GIN's fast update keeps new entries in a pending list that every full-text search
-- reads whole, until the list passes gin_pending_list_limit (4 MB by default) or a vacuum merges
-- it, and PGlite never vacuums: 4 MB read by each search (about 500 pages, most of a word's
-- count at 100,000 chunks). At 256 kB a search reads at most 32 pages, while inserts still go
-- through the list and are merged in bulk (fast update off made indexing 2 to 3 times slower).
-- The list left so far is merged now.
ALTER INDEX "KnowledgeChunk_searchVector_idx" SET (gin_pending_list_limit = 256);
SELECT gin_clean_pending_list('"KnowledgeChunk_searchVector_idx"'::regclass);
