-- AlterTable
ALTER TABLE "Outbox" ADD COLUMN     "partsSent" INTEGER NOT NULL DEFAULT 0;
