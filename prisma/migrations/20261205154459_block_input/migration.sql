-- AlterTable
ALTER TABLE "Block" ADD COLUMN     "input" JSONB;
