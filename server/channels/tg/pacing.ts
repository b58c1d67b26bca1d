import { setTimeout as sleep } from 'node:timers/promises';
import { type PacingLimits, slotSpacing, TG_LIMITS } from '@/lib/tg/pacing';
import { pauseBot, type TakenSlot, takeSlot } from '@/server/db/channel-pacing-sql';
import type { PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';

/** A first slot's parameters, for a statement that takes it with other work (channel-pacing-sql's takeSlotsSql). */
export interface SlotParams {
  chat: string;
  releasing: null;
  botMs: number;
  chatMs: number;
}

/**
 * One send's place in this process's order: taken before its slot, so that a send this process
 * must hold back anyway never takes (and wastes) a slot of the bot shared by every process.
 */
export interface TgTurn {
  /**
   * Waits for a slot of the bot (its channel) and the chat, then runs the send; `taken` is a
   * slot the caller took for it with `slotParams` in its own statement after the turn came.
   */
  send<T>(db: PrismaClient, channelId: number, run: () => Promise<T>, taken?: TakenSlot): Promise<T>;
  /** The send will not happen (its route was refused). */
  cancel(): void;
}

/**
 * The tg messenger's limits obeyed by every process sending for a bot together (web instances,
 * job workers): each send takes its slot from the bot's row in the database (one statement,
 * server/db/channel-pacing-sql.ts), waits for it, then goes. A 429's retry_after moves the bot's next
 * slot, so every process waits it out. Within the process, a send also waits for its turn (see
 * `turn`), which keeps the limits however late the messenger counts this process's sends.
 */
export interface TgPacer {
  /**
   * This process's turn to send to the chat of the bot (`bot`: any key naming it in this
   * process): once the process's send to the chat before it was answered the chat's interval
   * ago, and its send `botPerSecond` before it a second ago.
   */
  turn(bot: string, chatId: string): Promise<TgTurn>;
  /** `turn` and `send` at once, for a bot known by its channel. */
  paced<T>(
    db: PrismaClient,
    channelId: number,
    chatId: string,
    run: () => Promise<T>,
    taken?: TakenSlot,
  ): Promise<T>;
  /** The parameters of a first slot for the chat, taken by another statement. */
  slotParams(chatId: string): SlotParams;
  /** No send of the bot, from any process, for `seconds`. */
  pause(db: PrismaClient, channelId: number, seconds: number): Promise<void>;
  /** For the benchmark's throughput part (unlimited) and back. */
  setLimits(limits: PacingLimits): void;
}

/**
 * A send this much later than its slot takes another: the slots' margins (lib/tg/pacing) leave
 * the bot's 30 slots of a second 50 ms to spare, and a chat's two slots 50 ms.
 */
const LATE_MS = 25;
/** Timers may fire a millisecond early against the wall clock. */
const CLOCK_MARGIN_MS = 5;
/** The chats' answer times are dropped once this old: far past every chat's interval. */
const CHAT_MEMORY_MS = 120_000;

/** When a send, and in a bot's window every send before it, was answered; pending while in flight. */
type Answered = Promise<number>;

export function createTgPacer(initial: PacingLimits = TG_LIMITS): TgPacer {
  let limits = initial;
  /** Per bot, this process's latest `botPerSecond` sends (each resolving once it and all before it were answered). */
  const windows = new Map<string, Answered[]>();
  /** Per bot and chat, this process's latest send to the chat, and when it was answered once it was. */
  const chats = new Map<string, { answered: Answered; at: number | null }>();
  let turnsSincePrune = 0;
  /** The benchmark's throughput part: slots are still taken (their cost is measured), nothing waits. */
  const unlimited = () => limits.botPerSecond > 1000;

  const waitUntil = async (at: number) => {
    if (at > Date.now()) await sleep(at - Date.now());
  };

  function pruneChats(now: number) {
    if (++turnsSincePrune < 1000) return;
    turnsSincePrune = 0;
    for (const [key, entry] of chats)
      if (entry.at !== null && entry.at < now - CHAT_MEMORY_MS) chats.delete(key);
  }

  /**
   * The messenger counts a send when it arrives, anywhere between when it left and when its
   * answer came: only answer times bound it. So a send to a chat waits until the process's
   * previous send to that chat was answered the chat's interval ago (its slot, spaced from the
   * previous slot, may come sooner when that send left late or took long to arrive), and a send
   * of the bot waits until its send `botPerSecond` before, and all before that, were answered a
   * second ago. The chat's wait comes first, so a send waiting for its chat holds no place in the
   * bot's window that sends to other chats would wait behind.
   */
  async function turn(bot: string, chatId: string): Promise<TgTurn> {
    let done = (_at: number) => {};
    const mine: Answered = new Promise((resolve) => (done = resolve));
    // When the chat's send before this one was answered: a turn cancelled unsent (its bot not
    // connected, its route refused) answers with it, so it spaces nothing after it.
    let spacedFrom = 0;
    if (!unlimited()) {
      const chatKey = `${bot}\u0000${chatId}`;
      const previous = chats.get(chatKey);
      const entry = { answered: mine, at: null as number | null };
      chats.set(chatKey, entry);
      void mine.then((at) => (entry.at = at));
      pruneChats(Date.now());
      if (previous) {
        spacedFrom = await previous.answered;
        await waitUntil(spacedFrom + slotSpacing(chatId, limits).chatMs);
      }

      const latest = windows.get(bot) ?? [];
      const count = limits.botPerSecond;
      const before = latest.length >= count ? latest[latest.length - count] : undefined;
      const upTo = Promise.all([latest.at(-1) ?? 0, mine]).then(([a, b]) => Math.max(a, b));
      windows.set(bot, [...latest.slice(1 - count), upTo]);
      if (before) await waitUntil((await before) + 1000 + CLOCK_MARGIN_MS);
    }
    // A promise resolves once: a send's settling and a later cancel() are one answer time.
    const settle = () => done(Date.now());
    return {
      async send(db, channelId, run, taken) {
        try {
          await inSlot(db, channelId, chatId, taken);
          return await run();
        } finally {
          settle();
        }
      },
      cancel: () => done(spacedFrom),
    };
  }

  /**
   * Waits for a slot of the bot and the chat. A send later than its slot (the event loop was
   * busy, the statement slow) would crowd the sends whose slots follow it, in this process or
   * another, so it takes a new one, as many times as it takes: a send never goes late. The
   * first new slot is not spaced from the chat entry of the abandoned one (that added the
   * chat's whole interval, a second, to a send late once); a send late again finds the process
   * overloaded, and its later slots keep that spacing, which spreads the sends out until the
   * load passes.
   */
  async function inSlot(db: PrismaClient, channelId: number, chatId: string, first: TakenSlot | undefined) {
    let releasing: string | null = null;
    for (let taken = 1; ; taken++) {
      const slot: TakenSlot =
        taken === 1 && first
          ? first
          : (
              await plainSql(db).run(takeSlot, {
                channelId,
                chat: chatId,
                releasing,
                ...slotSpacing(chatId, limits),
              })
            )[0];
      releasing = taken === 1 ? slot.chatEntry : null;
      const due = Date.now() + Math.max(slot.waitMs, 0);
      if (slot.waitMs > 0) await sleep(slot.waitMs);
      const late = Date.now() - due + Math.max(-slot.waitMs, 0);
      if (late <= LATE_MS || unlimited()) return;
    }
  }

  return {
    turn,
    async paced(db, channelId, chatId, run, taken) {
      return (await turn(`channel ${channelId}`, chatId)).send(db, channelId, run, taken);
    },
    slotParams: (chatId) => ({ chat: chatId, releasing: null, ...slotSpacing(chatId, limits) }),
    async pause(db, channelId, seconds) {
      await plainSql(db).run(pauseBot, { channelId, pauseMs: Math.max(seconds, 1) * 1000 });
    },
    setLimits(next) {
      limits = next;
      windows.clear();
      chats.clear();
    },
  };
}
