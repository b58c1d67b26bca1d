-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "publishedRevision" INTEGER,
ADD COLUMN     "publishedVersion" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "BotVersion" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "number" INTEGER NOT NULL,
    "schema" JSONB NOT NULL,
    "blockCount" INTEGER NOT NULL DEFAULT 0,
    "arrowCount" INTEGER NOT NULL DEFAULT 0,
    "answersCallbacks" BOOLEAN NOT NULL DEFAULT false,
    "restoredFrom" INTEGER,
    "note" TEXT NOT NULL DEFAULT '',
    "publishedById" TEXT,
    "publishedByName" TEXT NOT NULL DEFAULT '',
    "publishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BotVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BotVersion_projectId_number_key" ON "BotVersion"("projectId", "number");

-- AddForeignKey
ALTER TABLE "BotVersion" ADD CONSTRAINT "BotVersion_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BotVersion" ADD CONSTRAINT "BotVersion_publishedById_fkey" FOREIGN KEY ("publishedById") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Every existing project's bot, as it is, becomes its version 1, published (the same JSON as
-- server/projects/bot-schema-store.ts reads from the rows).
INSERT INTO "BotVersion" ("projectId", "number", "schema", "note")
SELECT p."id", 1,
  jsonb_build_object(
    'format', 'blockbot/schema@1',
    'blocks', coalesce((
      SELECT jsonb_agg(
        jsonb_build_object('id', b."id", 'kind', b."kind", 'name', b."name",
          'position', jsonb_build_object('x', b."x", 'y', b."y"), 'text', b."text",
          'attachments', b."attachments", 'formula', b."formula")
        || CASE WHEN coalesce(b."width", 0) <> 0 AND coalesce(b."height", 0) <> 0
             THEN jsonb_build_object('size', jsonb_build_object('width', b."width", 'height', b."height"))
             ELSE '{}'::jsonb END
        || CASE WHEN b."trigger" IS NOT NULL THEN jsonb_build_object('trigger', b."trigger") ELSE '{}'::jsonb END
        || CASE WHEN b."buttons" IS NOT NULL THEN jsonb_build_object('buttons', b."buttons") ELSE '{}'::jsonb END
        || CASE WHEN b."request" IS NOT NULL THEN jsonb_build_object('request', b."request") ELSE '{}'::jsonb END
        || CASE WHEN b."actions" IS NOT NULL THEN jsonb_build_object('actions', b."actions") ELSE '{}'::jsonb END
        ORDER BY b."id")
      FROM "Block" b WHERE b."projectId" = p."id"), '[]'::jsonb),
    'arrows', coalesce((
      SELECT jsonb_agg(
        a."settings" || jsonb_build_object('id', a."id", 'from', a."fromId", 'to', a."toId", 'kind', a."kind")
        ORDER BY a."id")
      FROM "Arrow" a WHERE a."projectId" = p."id"), '[]'::jsonb)
  ),
  'The bot as it was when versions came'
FROM "Project" p;

UPDATE "BotVersion" SET "blockCount" = jsonb_array_length("schema"->'blocks'), "arrowCount" = jsonb_array_length("schema"->'arrows'),
  "answersCallbacks" = strpos("schema"::text, 'tg_callback_url_open') > 0;

UPDATE "Project" SET "publishedVersion" = 1, "publishedRevision" = "schemaRevision";
