-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "customAnswer" TEXT;
