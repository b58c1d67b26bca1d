-- AlterTable
ALTER TABLE "KnowledgeDocument" ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0;
