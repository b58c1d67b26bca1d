/**
 * The tg messenger's limits as the spacing between sends: 30 a second per bot, one a second per
 * private chat, 20 a minute per group. Every process sending for a bot takes its sends' slots
 * from one shared row (server/channels/tg/pacing.ts), each slot `botMs` after the bot's previous
 * one and `chatMs` after the chat's; this module says how far apart. Pure.
 */

export interface PacingLimits {
  botPerSecond: number;
  privateChatIntervalMs: number;
  groupPerMinute: number;
}

export const TG_LIMITS: PacingLimits = { botPerSecond: 30, privateChatIntervalMs: 1000, groupPerMinute: 20 };

/**
 * The messenger counts sends as they arrive, which may be a little later than their slot (a
 * busy event loop, a queued connection, another instance's network): slots are spaced a little
 * wider than the limits, so a late send and an early one never put one too many in a window.
 * A send goes at most 25 ms after its slot (server/channels/tg/pacing.ts): 30 bot slots span
 * 30 × 35.3 ms, 1,060 ms, so even the first of them late leaves 35 ms for the network.
 */
export const BOT_MARGIN_MS = 2;
export const CHAT_MARGIN_MS = 50;

/** Groups and supergroups have negative ids. */
export const isGroupChat = (chatId: string | number) => String(chatId).startsWith('-');

/**
 * How far a send of the bot to the chat must be from the bot's previous send and from the
 * chat's. A group's 20 a minute are spread evenly (one every 3 s), since a window of 20 would
 * need every process to keep the group's last 20 send times.
 */
export function slotSpacing(
  chatId: string | number,
  limits: PacingLimits = TG_LIMITS,
): { botMs: number; chatMs: number } {
  const chatMs = isGroupChat(chatId) ? 60_000 / limits.groupPerMinute : limits.privateChatIntervalMs;
  return {
    botMs: 1000 / limits.botPerSecond + (limits.botPerSecond > 1000 ? 0 : BOT_MARGIN_MS),
    chatMs: chatMs > 0 ? chatMs + CHAT_MARGIN_MS : 0,
  };
}
