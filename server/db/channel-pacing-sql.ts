import { z } from 'zod';
import { PreparedStatement } from './raw-sql';

/**
 * A messenger's limits shared by every process sending for a channel (a tg bot,
 * server/channels/tg/pacing.ts; a chat-app Cloud API number, server/channels/chatapp/adapter.ts):
 * one row per channel holding its next free slot and the next free slot of each chat it sent to
 * lately (a chat-app number: how far a rate-limit answer slowed it, instead). A send takes its slot with one statement, which locks the row, so two processes never
 * take the same slot. Times are milliseconds on the database's clock, so the instances' clocks
 * need not agree; the caller only learns how long to wait.
 */

/**
 * The time as the statement runs, not as its transaction began: a statement that waited for the
 * row's lock takes a slot from then, and its wait is counted from when it answers.
 */
const NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::float8`;
/**
 * The earliest time both the bot and the chat allow. A send taking a new slot because it came
 * too late to its own passes the chat's entry that slot set (`$releasing`): when no other send
 * of the chat took a slot since, that entry only spaced the chat from a send that never went,
 * so it does not count (the chat's last real send is already far enough behind).
 */
const CHAT_ENTRY = `(p.chats ->> $chat::text)`;
const SLOT = `greatest(${NOW_MS}, p."nextAt",
  CASE WHEN ${CHAT_ENTRY} = $releasing::text THEN NULL ELSE ${CHAT_ENTRY}::float8 END)`;

/** A slot as taken: how many ms from now it is, and the chat's entry it set (for `releasing`). */
export const slotColumns = { waitMs: z.coerce.number(), chatEntry: z.string() };
const slotRow = z.object(slotColumns);
export type TakenSlot = z.infer<typeof slotRow>;

/**
 * Takes the next slot of the bot (`botMs` after the previous one) that is also free for the chat
 * (`chatMs` after its previous one), and answers how many ms from now it is: a send's slot taken
 * again (`releasing`), the first ones being taken with their routes (takeSlotsSql). Chats whose
 * slot has passed are dropped from the row, so it holds only the few still ahead.
 * Every send of the bot queues on this row's lock: it commits without waiting for its WAL to
 * reach the disk (synchronous_commit off for its own transaction), so the lock is held for the
 * statement, not a disk flush. A slot lost in a database crash is a slot already in the past.
 */
export const takeSlot = new PreparedStatement(
  `WITH no_flush AS (SELECT set_config('synchronous_commit', 'off', true)),
   slot AS (
   INSERT INTO "ChannelPacing" AS p ("channelId", "nextAt", chats)
   SELECT $channelId::int, ${NOW_MS} + $botMs::float8,
     jsonb_build_object($chat::text, ${NOW_MS} + $chatMs::float8)
   FROM no_flush
   ON CONFLICT ("channelId") DO UPDATE SET
     "nextAt" = ${SLOT} + $botMs::float8,
     chats = coalesce(
       (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(p.chats) e
        WHERE e.key <> $chat::text AND (e.value #>> '{}')::float8 > ${NOW_MS}),
       '{}'::jsonb) || jsonb_build_object($chat::text, ${SLOT} + $chatMs::float8)
   RETURNING p."nextAt" - $botMs::float8 - ${NOW_MS} AS "waitMs", ${CHAT_ENTRY} AS "chatEntry")
   SELECT * FROM slot`,
  slotRow,
);

/**
 * takeSlot for several sends at once (`from`: rows of `id`, the channel; `n`, the order they
 * came in; `chat`; `"botMs"` and `"chatMs"`; at most one row per channel and chat), as if each
 * took its slot after the one before it: one statement, and one lock of each channel's row, for
 * them all. A send's slot is the sum of the bot intervals of the channel's sends before it (S)
 * plus the latest of the row's next slot and, for each send up to it, the later of now and its
 * chat's entry less that send's own S. Rows are written in channel order, so two statements
 * never wait for each other's rows. Answers each channel's `chats` as written, from which each
 * send reads its slot (its chat's entry less its chat interval).
 */
export function takeSlotsSql(from: string): string {
  const slotsOf = (channel: string, nextAt: string, chats: string) =>
    `SELECT r.chat, r."botMs", r."chatMs", r.before + greatest(${nextAt}, max(
         greatest(${NOW_MS}, (${chats} ->> r.chat)::float8) - r.before) OVER (ORDER BY r.n)) AS at
     FROM (
       SELECT f.*, sum(f."botMs") OVER (ORDER BY f.n) - f."botMs" AS before FROM ${from} f WHERE f.id = ${channel}
     ) r`;
  return `no_flush AS (SELECT set_config('synchronous_commit', 'off', true)),
   slots AS (
   INSERT INTO "ChannelPacing" AS p ("channelId", "nextAt", chats)
   SELECT c.id, s.next, s.chats
   FROM (SELECT DISTINCT id FROM ${from}) c CROSS JOIN no_flush
   CROSS JOIN LATERAL (
     SELECT max(x.at + x."botMs") AS next, jsonb_object_agg(x.chat, x.at + x."chatMs") AS chats
     FROM (${slotsOf('c.id', 'NULL::float8', "'{}'::jsonb")}) x
   ) s
   ORDER BY c.id
   ON CONFLICT ("channelId") DO UPDATE SET ("nextAt", chats) = (
     SELECT max(x.at + x."botMs"),
       coalesce(
         (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(p.chats) e
          WHERE (e.value #>> '{}')::float8 > ${NOW_MS}
            AND e.key NOT IN (SELECT f.chat FROM ${from} f WHERE f.id = p."channelId")),
         '{}'::jsonb) || jsonb_object_agg(x.chat, x.at + x."chatMs")
     FROM (${slotsOf('p."channelId"', 'p."nextAt"', 'p.chats')}) x)
   RETURNING p."channelId", p.chats)`;
}

/** A send's slot as takeSlotsSql took it, read off its channel's `slots` row (`s`) for its request (`f`). */
export const TAKEN_SLOT_COLUMNS = `(s.chats ->> f.chat)::float8 - f."chatMs" - ${NOW_MS} AS "waitMs",
  s.chats ->> f.chat AS "chatEntry"`;

/**
 * A chat-app number slowed by a rate-limit answer (slowRate): its interval doubles (at most to
 * one send a second) and is halved back every minute without another, down to the usual one.
 */
const RATE_RECOVERY_MS = 60_000;
const SLOWEST_RATE_MS = 1000;

/** The row's interval now: its usual `$rateMs`, or its slowed one, halved for each minute since. */
const rateOf = (p: string) =>
  `greatest($rateMs::float8, coalesce(${p}."slowMs" * power(0.5::float8,
     floor((${NOW_MS} - ${p}."slowedAt") / ${RATE_RECOVERY_MS})), 0))`;

/**
 * Takes the channel's next slot (its interval after the previous one: `$rateMs`, or slower
 * after a rate limit) with no spacing per chat (a chat-app number's throughput), and answers how
 * many ms from now it is and the interval it was taken at: `rate` AS ("waitMs", "rateMs").
 * Cheaper than takeSlot, which also keeps each chat's next slot.
 */
export function takeRateSlotSql(channelId: string, from: string, where = 'true'): string {
  return `no_flush AS (SELECT set_config('synchronous_commit', 'off', true)),
   rate AS (
   INSERT INTO "ChannelPacing" AS p ("channelId", "nextAt")
   SELECT ${channelId}, ${NOW_MS} + $rateMs::float8 FROM ${from}, no_flush WHERE ${where}
   ON CONFLICT ("channelId") DO UPDATE SET "nextAt" = greatest(${NOW_MS}, p."nextAt") + ${rateOf('p')}
   RETURNING p."nextAt" - ${rateOf('p')} - ${NOW_MS} AS "waitMs", ${rateOf('p')} AS "rateMs")`;
}

/** A slot as takeRateSlotSql took it. */
export const rateSlotColumns = { waitMs: z.coerce.number(), rateMs: z.coerce.number() };

export const takeRateSlot = new PreparedStatement(
  `WITH ${takeRateSlotSql('$channelId::int', '(SELECT 1) AS one')} SELECT * FROM rate`,
  z.object(rateSlotColumns),
);

/**
 * A rate-limit answer (130429) to a send whose slot was taken `$sentMs` apart: the number's
 * interval doubles from that, for every process (one answer per interval counts: the other
 * sends already on their way at the old pace were answered the same), and its next slot is at
 * least that far from now.
 */
export const slowRate = new PreparedStatement(
  `INSERT INTO "ChannelPacing" AS p ("channelId", "nextAt", "slowMs", "slowedAt")
   VALUES ($channelId::int, ${NOW_MS} + least(${SLOWEST_RATE_MS}, 2 * $sentMs::float8),
     least(${SLOWEST_RATE_MS}, 2 * $sentMs::float8), ${NOW_MS})
   ON CONFLICT ("channelId") DO UPDATE SET
     "slowMs" = greatest(${rateOf('p')}, least(${SLOWEST_RATE_MS}, 2 * $sentMs::float8)),
     "slowedAt" = ${NOW_MS},
     "nextAt" = greatest(p."nextAt", ${NOW_MS} + greatest(${rateOf('p')}, least(${SLOWEST_RATE_MS}, 2 * $sentMs::float8)))
   RETURNING p."slowMs"`,
  z.object({ slowMs: z.coerce.number() }),
);

/** A 429's retry_after: no send of the bot, from any process, before `pauseMs` from now. */
export const pauseBot = new PreparedStatement(
  `INSERT INTO "ChannelPacing" AS p ("channelId", "nextAt") VALUES ($channelId::int, ${NOW_MS} + $pauseMs::float8)
   ON CONFLICT ("channelId") DO UPDATE SET "nextAt" = greatest(p."nextAt", EXCLUDED."nextAt")`,
);
