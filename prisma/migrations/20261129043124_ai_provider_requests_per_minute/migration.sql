-- AlterTable
ALTER TABLE "AiProvider" ADD COLUMN     "requestsPerMinute" INTEGER NOT NULL DEFAULT 0;
