-- AlterTable
ALTER TABLE "ProjectMember" ADD COLUMN     "avatarUrl" TEXT NOT NULL DEFAULT '';
