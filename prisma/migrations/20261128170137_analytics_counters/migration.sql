-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "lastBlockAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "FlowCount" (
    "projectId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "kind" TEXT NOT NULL,
    "targetId" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "visitors" BYTEA NOT NULL,

    CONSTRAINT "FlowCount_pkey" PRIMARY KEY ("projectId","version","day","kind","targetId")
);

-- CreateTable
CREATE TABLE "FlowHit" (
    "id" BIGSERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "clientId" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "blocks" INTEGER[],
    "arrows" INTEGER[],
    "stages" INTEGER[],
    "submitted" INTEGER[],

    CONSTRAINT "FlowHit_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "FlowCount" ADD CONSTRAINT "FlowCount_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
