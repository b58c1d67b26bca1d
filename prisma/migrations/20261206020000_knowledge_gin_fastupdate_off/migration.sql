-- Written by hand (Prisma's schema has no index storage parameters, so its diff leaves these
-- alone). GIN's fast update keeps new entries in a pending list that every full-text search
-- reads whole until a vacuum merges it: up to 4 MB a search, and PGlite never vacuums. Off, a
-- chunk's words go into the index as it is written; the list left so far is merged now.
ALTER INDEX "KnowledgeChunk_searchVector_idx" SET (fastupdate = off);
SELECT gin_clean_pending_list('"KnowledgeChunk_searchVector_idx"'::regclass);
