import { setTimeout as sleep } from 'node:timers/promises';
import { type PacingLimits, slotSpacing, TG_LIMITS } from '@/lib/tg/pacing';
import type { PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import { pauseBot, type TakenSlot, takeSlot } from '@/server/db/tg-pacing-sql';

/** A first slot's parameters, for a statement that takes it with other work (tg-pacing-sql's takeSlotSql). */
export interface SlotParams {
  chat: string;
  releasing: null;
  botMs: number;
  chatMs: number;
}

/**
 * The tg messenger's limits obeyed by every process sending for a bot together (web instances,
 * job workers): each send takes its slot from the bot's row in the database (one statement,
 * server/db/tg-pacing-sql.ts), waits for it, then goes. A 429's retry_after moves the bot's next
 * slot, so every process waits it out.
 */
export interface TgPacer {
  /**
   * Runs one send of the bot (its channel) to the chat once the limits allow it; `taken` is a
   * slot the caller already took for it with `slotParams` (in its own statement), else one is taken.
   */
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

/** A send this much later than its slot takes another: within the slots' margins (lib/tg/pacing). */
const LATE_MS = 25;
const MAX_SLOTS_TAKEN = 4;
/** Timers may fire a millisecond early against the wall clock. */
const CLOCK_MARGIN_MS = 5;

export function createTgPacer(initial: PacingLimits = TG_LIMITS): TgPacer {
  let limits = initial;
  /**
   * Per bot, for each of this process's latest sends: when it and every send before it were
   * answered (pending while one is in flight).
   */
  const answered = new Map<number, Promise<number>[]>();
  /** The benchmark's throughput part: slots are still taken (their cost is measured), nothing waits. */
  const unlimited = () => limits.botPerSecond > 1000;

  /**
   * The messenger counts a send when it gets there, which may be well after its slot (a busy
   * event loop, a queued connection): a send goes only once this process's send `botPerSecond`
   * before it, and all earlier ones, were answered at least a second ago, so its own sends never
   * put one too many in a second of the messenger; the slots' margin covers other processes.
   */
  async function inBotWindow<T>(bot: number, run: () => Promise<T>): Promise<T> {
    const count = limits.botPerSecond;
    const latest = answered.get(bot) ?? [];
    const before = latest.length >= count ? latest[latest.length - count] : undefined;
    let done = (_at: number) => {};
    const mine = new Promise<number>((resolve) => (done = resolve));
    const upTo = Promise.all([latest.at(-1) ?? 0, mine]).then(([a, b]) => Math.max(a, b));
    answered.set(bot, [...latest.slice(1 - count), upTo]);
    try {
      if (before) {
        const at = (await before) + 1000 + CLOCK_MARGIN_MS;
        if (at > Date.now()) await sleep(at - Date.now());
      }
      return await run();
    } finally {
      done(Date.now());
    }
  }

  /**
   * Waits for a slot of the bot and the chat. A send much later than its slot (the event loop
   * was busy, the statement slow) would crowd the sends whose slots follow it, so it takes a new
   * one, as many times as it takes, up to a bound. The first new slot is not spaced from the
   * chat entry of the abandoned one (that added the chat's whole interval, a second, to a send
   * late once); a send late again finds the process overloaded, and its later slots keep that
   * spacing, which spreads the sends out until the load passes (a send that finally goes late
   * would otherwise crowd the chat's next one, whose slot followed its last).
   */
  async function inSlot(
    db: PrismaClient,
    channelId: number,
    chatId: string,
    first: TakenSlot | undefined,
  ): Promise<void> {
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
      if (late <= LATE_MS || taken >= MAX_SLOTS_TAKEN || unlimited()) return;
    }
  }

  return {
    async paced(db, channelId, chatId, run, taken) {
      await inSlot(db, channelId, chatId, taken);
      return unlimited() ? run() : inBotWindow(channelId, run);
    },
    slotParams: (chatId) => ({ chat: chatId, releasing: null, ...slotSpacing(chatId, limits) }),
    async pause(db, channelId, seconds) {
      await plainSql(db).run(pauseBot, { channelId, pauseMs: Math.max(seconds, 1) * 1000 });
    },
    setLimits(next) {
      limits = next;
      answered.clear();
    },
  };
}
