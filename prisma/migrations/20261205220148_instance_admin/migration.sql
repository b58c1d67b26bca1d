-- CreateEnum
CREATE TYPE "InstanceRole" AS ENUM ('admin', 'user');

-- CreateEnum
CREATE TYPE "SignUpMode" AS ENUM ('open', 'invite-only', 'closed');

-- AlterTable
ALTER TABLE "user" ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "instanceRole" "InstanceRole" NOT NULL DEFAULT 'user';

-- CreateTable
CREATE TABLE "InstanceSettings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "signUp" "SignUpMode",
    "adminClaimedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InstanceSettings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "user_createdAt_id_idx" ON "user"("createdAt", "id");

-- An instance that has accounts already: its oldest account becomes its admin, as the first
-- sign-up does on a new one.
UPDATE "user" SET "instanceRole" = 'admin'
WHERE "id" = (SELECT "id" FROM "user" ORDER BY "createdAt", "id" LIMIT 1);

INSERT INTO "InstanceSettings" ("id", "adminClaimedAt", "updatedAt")
SELECT 1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP WHERE EXISTS (SELECT 1 FROM "user");
