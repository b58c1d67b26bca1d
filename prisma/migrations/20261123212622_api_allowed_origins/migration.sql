-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "apiAllowedOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[];
