-- CreateTable
CREATE TABLE "DraftChange" (
    "projectId" INTEGER NOT NULL,
    "revision" INTEGER NOT NULL,
    "authorId" TEXT,
    "authorName" TEXT NOT NULL DEFAULT '',
    "changes" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DraftChange_pkey" PRIMARY KEY ("projectId","revision")
);

-- AddForeignKey
ALTER TABLE "DraftChange" ADD CONSTRAINT "DraftChange_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
