/**
 * The tg bench's load (bench/tg.bench.ts): chats each posting text updates to a bot's webhook
 * and waiting for its answer before posting the next. Run in the bench's process, or forked as
 * a process of its own (this file run as a script), so that the bench process's CPU is only
 * the bots' and the fake Bot API's. Forked, it posts to the webhook itself and learns of each
 * answer from the bench process, which sees it arrive at the fake (an IPC message, the same
 * short delay for both bots).
 */

export interface Webhook {
  url: string;
  secretToken?: string;
}

/** One closed-loop round's figures: each update's latency and the round's duration. */
export interface RoundFigures {
  latencies: number[];
  ms: number;
}

/** Orders to a forked load process, and its answer once a round is done. */
export type LoadOrder =
  | { type: 'round'; webhook: Webhook; chats: number; chatBase: number; messages: number; tag: string }
  | { type: 'answer'; key: string };
export type LoadReport = RoundFigures & { type: 'done'; cpuMs: number };

/** The answer to the update whose text is `text`: what the benchmarked bots reply. */
export const answerText = (text: string) => `Got ${text}`;
/** An answer's key: texts are unique per round, and only one bot is measured at a time. */
export const answerKey = (chat: unknown, text: unknown) => `${chat}|${text}`;

/** The answers awaited, by key: one listener wherever they are seen, no scan. */
export class AnswerWaiter {
  private readonly awaited = new Map<string, () => void>();

  /** Resolves with the time the answer `key` arrives; rejects after 30 s. */
  expect(key: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.awaited.delete(key);
        reject(new Error(`no answer ${key} within 30 s`));
      }, 30_000);
      this.awaited.set(key, () => {
        clearTimeout(timer);
        resolve(performance.now());
      });
    });
  }

  arrived(key: string): void {
    this.awaited.get(key)?.();
    this.awaited.delete(key);
  }
}

let nextMessageId = 1;

/** A private chat's text message, as the messenger sends it. */
export function textUpdate(chat: number, text: string): Record<string, unknown> {
  return {
    message: {
      message_id: nextMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chat, type: 'private', first_name: `Chat ${chat}` },
      from: { id: chat, is_bot: false, first_name: `Chat ${chat}` },
      text,
    },
  };
}

/**
 * Every chat (0 to chats - 1) posts `messages` updates one after another (`post` is given the
 * chat's and the update's number), each timed from its post until its answer arrived (`post`
 * resolves with that time) — not until the webhook also answered: the bare bot answers its
 * webhook only after its last writes, ours at once.
 */
export async function closedLoopRound(
  chats: number,
  messages: number,
  post: (chat: number, message: number) => Promise<number>,
): Promise<RoundFigures> {
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: chats }, async (_, c) => {
      for (let i = 0; i < messages; i++) {
        const t = performance.now();
        latencies.push((await post(c, i)) - t);
      }
    }),
  );
  return { latencies, ms: performance.now() - start };
}

/** The forked process: posts over HTTP as the messenger does (the secret header), update ids its own. */
async function serveOrders(): Promise<void> {
  const waiter = new AnswerWaiter();
  // Far from the fake's own update ids (100,000 up), so no update is taken for a resend.
  let nextUpdateId = 1_000_000_000;

  async function round(order: Extract<LoadOrder, { type: 'round' }>): Promise<LoadReport> {
    const cpu = process.cpuUsage();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (order.webhook.secretToken) headers['x-telegram-bot-api-secret-token'] = order.webhook.secretToken;
    const figures = await closedLoopRound(order.chats, order.messages, async (c, i) => {
      const chat = order.chatBase + c;
      const text = `${order.tag}${i}`;
      const answered = waiter.expect(answerKey(chat, answerText(text)));
      const response = await fetch(order.webhook.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ update_id: nextUpdateId++, ...textUpdate(chat, text) }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
      return answered;
    });
    const used = process.cpuUsage(cpu);
    return { type: 'done', ...figures, cpuMs: (used.user + used.system) / 1000 };
  }

  process.on('message', (order: LoadOrder) => {
    if (order.type === 'answer') waiter.arrived(order.key);
    else
      round(order).then(
        (report) => process.send?.(report),
        (error: Error) => {
          console.error(`[tg-load] ${error.message}`);
          process.exit(1);
        },
      );
  });
  // Ends with the bench process (its IPC channel closes).
  process.on('disconnect', () => process.exit(0));
}

if (import.meta.url === `file://${process.argv[1]}` && process.send) await serveOrders();
