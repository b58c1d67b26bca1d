-- AlterEnum
ALTER TYPE "ArrowKind" ADD VALUE 'continue';
