ALTER TABLE "Project" ADD COLUMN "webhookTestConversations" BOOLEAN NOT NULL DEFAULT false;
