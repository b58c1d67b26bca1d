-- CreateEnum
CREATE TYPE "KnowledgeSourceKind" AS ENUM ('text', 'markdown', 'pdf', 'html', 'url');

-- CreateEnum
CREATE TYPE "KnowledgeStatus" AS ENUM ('indexing', 'ready', 'failed');

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "knowledgeRevision" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "KnowledgeDocument" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "sourceKind" "KnowledgeSourceKind" NOT NULL,
    "sourceUrl" TEXT,
    "status" "KnowledgeStatus" NOT NULL DEFAULT 'indexing',
    "error" TEXT,
    "chunkSize" INTEGER NOT NULL,
    "byteSize" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "KnowledgeDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeChunk" (
    "id" SERIAL NOT NULL,
    "documentId" INTEGER NOT NULL,
    "projectId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "headingPath" TEXT[],
    "text" TEXT NOT NULL,
    "embedding" BYTEA,
    "embeddingModel" TEXT,
    "dimensions" INTEGER,
    "searchVector" tsvector,

    CONSTRAINT "KnowledgeChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "KnowledgeDocument_projectId_id_idx" ON "KnowledgeDocument"("projectId", "id");

-- CreateIndex
CREATE INDEX "KnowledgeChunk_projectId_id_idx" ON "KnowledgeChunk"("projectId", "id");

-- CreateIndex
CREATE INDEX "KnowledgeChunk_searchVector_idx" ON "KnowledgeChunk" USING GIN ("searchVector");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgeChunk_documentId_position_key" ON "KnowledgeChunk"("documentId", "position");

-- AddForeignKey
ALTER TABLE "KnowledgeDocument" ADD CONSTRAINT "KnowledgeDocument_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeChunk" ADD CONSTRAINT "KnowledgeChunk_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "KnowledgeDocument"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeChunk" ADD CONSTRAINT "KnowledgeChunk_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: the full-text vector of a chunk, kept by a trigger rather than a generated
-- column (Prisma's schema diff does not know generated columns and would drop the expression).
-- 'simple': no stemming or stop words, so documents in any language are searched alike.
CREATE FUNCTION "KnowledgeChunk_searchVector"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."searchVector" := setweight(to_tsvector('simple', array_to_string(NEW."headingPath", ' ')), 'B')
    || setweight(to_tsvector('simple', NEW."text"), 'A');
  RETURN NEW;
END
$$;

CREATE TRIGGER "KnowledgeChunk_searchVector"
  BEFORE INSERT OR UPDATE OF "text", "headingPath" ON "KnowledgeChunk"
  FOR EACH ROW EXECUTE FUNCTION "KnowledgeChunk_searchVector"();
