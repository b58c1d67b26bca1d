-- DropIndex
DROP INDEX "Outbox_claimedUntil_idx";

-- CreateIndex
CREATE INDEX "Outbox_claimedUntil_idx" ON "Outbox"("claimedUntil") WHERE (state = ANY (ARRAY['pending'::text, 'held'::text]));

-- CreateIndex
CREATE INDEX "Outbox_held_sends_idx" ON "Outbox"("clientId", "id") WHERE ((kind = 'send'::text) AND (error IS NOT NULL) AND (state = ANY (ARRAY['pending'::text, 'held'::text])));
