-- tg bot usernames are case-insensitive, and a bot's clients are stored under its channel's own
-- spelling. The API's tg_callback used to store the caller's (Shop_Bot beside shop_bot: two
-- clients for one chat): such clients move to the bot's spelling, the first of each chat when
-- several spellings have one, none where the bot already has a client for the chat (both stay).
UPDATE "Client" c SET "groupId" = ch."groupId"
FROM "Channel" ch
WHERE c."clientType" = 1 AND ch."clientType" = 1 AND ch."projectId" = c."projectId"
  AND lower(c."groupId") = lower(ch."groupId") AND c."groupId" <> ch."groupId"
  AND NOT EXISTS (
    SELECT 1 FROM "Client" o
    WHERE o."projectId" = c."projectId" AND o."clientType" = 1 AND o."groupId" = ch."groupId"
      AND o."platformId" = c."platformId")
  AND c.id = (
    SELECT min(d.id) FROM "Client" d
    WHERE d."projectId" = c."projectId" AND d."clientType" = 1 AND lower(d."groupId") = lower(ch."groupId")
      AND d."platformId" = c."platformId");
