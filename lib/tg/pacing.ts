/**
 * When the next message of a bot to a chat may go, under the tg messenger's limits: 30 a second
 * per bot, one a second per private chat, 20 a minute per group, and a pause after a 429's
 * retry_after. Pure: the state and the clock are arguments, and each change returns a new state.
 */

export interface PacingLimits {
  botPerSecond: number;
  privateChatIntervalMs: number;
  groupPerMinute: number;
}

export const TG_LIMITS: PacingLimits = { botPerSecond: 30, privateChatIntervalMs: 1000, groupPerMinute: 20 };

interface ChatPacing {
  /** The latest send times, newest last, as many as the chat's limit needs. */
  sends: readonly number[];
  pausedUntil: number;
}

export interface PacingState {
  botSends: readonly number[];
  botPausedUntil: number;
  /** Only chats that still hold back a send; the rest are dropped. */
  chats: ReadonlyMap<string, ChatPacing>;
}

export const emptyPacing = (): PacingState => ({ botSends: [], botPausedUntil: 0, chats: new Map() });

/** Groups and supergroups have negative ids. */
const isGroup = (chatId: string) => chatId.startsWith('-');

function chatRule(chatId: string, limits: PacingLimits): { count: number; windowMs: number } {
  return isGroup(chatId)
    ? { count: limits.groupPerMinute, windowMs: 60_000 }
    : { count: 1, windowMs: limits.privateChatIntervalMs };
}

/** The earliest time a window of `count` sends per `windowMs` allows another one. */
function windowFree(sends: readonly number[], count: number, windowMs: number): number {
  return sends.length >= count ? sends[sends.length - count] + windowMs : 0;
}

export function nextSendAt(
  state: PacingState,
  chatId: string | number,
  now: number,
  limits: PacingLimits = TG_LIMITS,
): number {
  const id = String(chatId);
  const chat = state.chats.get(id);
  const rule = chatRule(id, limits);
  return Math.max(
    now,
    state.botPausedUntil,
    windowFree(state.botSends, limits.botPerSecond, 1000),
    chat ? Math.max(chat.pausedUntil, windowFree(chat.sends, rule.count, rule.windowMs)) : 0,
  );
}

function prune(chats: Map<string, ChatPacing>, at: number, limits: PacingLimits): void {
  for (const [id, chat] of chats) {
    const rule = chatRule(id, limits);
    if (chat.pausedUntil <= at && (chat.sends.at(-1) ?? 0) <= at - rule.windowMs) chats.delete(id);
  }
}

/** A message went to the chat at `at`. */
export function recordSend(
  state: PacingState,
  chatId: string | number,
  at: number,
  limits: PacingLimits = TG_LIMITS,
): PacingState {
  const id = String(chatId);
  const rule = chatRule(id, limits);
  const chats = new Map(state.chats);
  prune(chats, at, limits);
  const chat = chats.get(id) ?? { sends: [], pausedUntil: 0 };
  chats.set(id, { ...chat, sends: [...chat.sends, at].slice(-rule.count) });
  return { ...state, botSends: [...state.botSends, at].slice(-limits.botPerSecond), chats };
}

/**
 * A 429 with retry_after: the messenger does not say which limit was hit, so by default the
 * whole bot waits (a broadcast over the bot's limit must stop, not move to the next chat);
 * `scope: 'chat'` holds back only the chat, for a 429 known to be that chat's.
 */
export function recordRetryAfter(
  state: PacingState,
  retry: { retryAfterSeconds: number; chatId?: string | number; scope?: 'bot' | 'chat' },
  now: number,
): PacingState {
  const until = now + Math.max(retry.retryAfterSeconds, 1) * 1000;
  if (retry.scope !== 'chat') return { ...state, botPausedUntil: Math.max(state.botPausedUntil, until) };
  if (retry.chatId === undefined) throw new Error('a chat pause needs the chatId');
  const id = String(retry.chatId);
  const chats = new Map(state.chats);
  const chat = chats.get(id) ?? { sends: [], pausedUntil: 0 };
  chats.set(id, { ...chat, pausedUntil: Math.max(chat.pausedUntil, until) });
  return { ...state, chats };
}

/** The send times of a list of messages (e.g. a broadcast), each as early as the limits allow, in order. */
export function schedule(
  state: PacingState,
  chatIds: readonly (string | number)[],
  now: number,
  limits: PacingLimits = TG_LIMITS,
): { times: number[]; state: PacingState } {
  const times: number[] = [];
  let current = state;
  let at = now;
  for (const chatId of chatIds) {
    at = nextSendAt(current, chatId, at, limits);
    times.push(at);
    current = recordSend(current, chatId, at, limits);
  }
  return { times, state: current };
}
