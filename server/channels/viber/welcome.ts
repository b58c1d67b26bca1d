/**
 * The welcome message (the reference's "Sending a welcome message"): Viber lets a bot send a
 * person who opened the chat but has not subscribed one message, and only as the body of its
 * answer to the `conversation_started` callback (send_message to them is refused, 6). The
 * webhook opens a turn for the person while the callback's event runs in this process (the bot
 * starts), and the adapter hands the bot's first message to it instead of send_message; the
 * webhook waits for it a few seconds at most (Viber retries a callback it gets no answer to).
 */

export const WELCOME_WAIT_MS = 4000;

interface Turn {
  give(body: object): void;
}

const turns = new Map<string, Turn>();
const keyOf = (channelId: number, userId: string) => `${channelId} ${userId}`;

/** Opens the person's turn: `wait` answers the message given to it, or null when none came in time. */
export function openWelcome(channelId: number, userId: string) {
  const key = keyOf(channelId, userId);
  let give: (body: object | null) => void = () => {};
  const given = new Promise<object | null>((resolve) => {
    give = resolve;
  });
  const turn: Turn = { give: (body) => give(body) };
  turns.set(key, turn);
  return {
    async wait(ms = WELCOME_WAIT_MS): Promise<object | null> {
      const timer = setTimeout(() => give(null), ms);
      try {
        return await given;
      } finally {
        clearTimeout(timer);
        if (turns.get(key) === turn) turns.delete(key);
      }
    },
  };
}

/** The person's open turn, taken (one message each): where the adapter gives the welcome. */
export function takeWelcome(channelId: number, userId: string): Turn | undefined {
  const key = keyOf(channelId, userId);
  const turn = turns.get(key);
  if (turn) turns.delete(key);
  return turn;
}
