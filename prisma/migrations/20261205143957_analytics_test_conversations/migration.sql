-- AlterTable
ALTER TABLE "FlowCount" DROP CONSTRAINT "FlowCount_pkey",
ADD COLUMN     "test" BOOLEAN NOT NULL DEFAULT false,
ADD CONSTRAINT "FlowCount_pkey" PRIMARY KEY ("projectId", "version", "day", "kind", "targetId", "test");

-- AlterTable
ALTER TABLE "FlowHit" ADD COLUMN     "test" BOOLEAN NOT NULL DEFAULT false;
