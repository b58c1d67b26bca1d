/**
 * The Cloud API's customer service window: free-form messages reach a client only within 24
 * hours of the client's last message to the number; after it, only a template message does.
 * The API's own word closes it too: a free-form message refused with 131047 (re-engagement, at
 * once or as a later `failed` status) means the API holds the window closed, whatever our clock
 * says, until the client writes again. Pure.
 */

/** The client's channel state that holds when they last wrote (the messenger's time, ISO). */
export const LAST_MESSAGE_KEY = 'chatapp_last_message_at';

/** The client's channel state that holds when the API last refused a free-form message to them (ISO). */
export const WINDOW_CLOSED_KEY = 'chatapp_window_closed_at';

/** The Cloud API's refusal of a free-form message outside the window. */
export const REENGAGEMENT_CODE = 131047;

export const WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a free-form message sent at `now` is within the window opened by `lastMessageAt`
 * and not closed by a refusal at `closedAt`: only a message of the client after the refusal
 * opens it again. The messenger gives its times in whole seconds, so they are compared in whole
 * seconds, and a message in the refusal's own second counts as before it (the next message goes
 * as the template: delivered, where a free-form one might be refused again).
 */
export function windowOpen(
  lastMessageAt: string | null | undefined,
  closedAt: string | null | undefined,
  now: number,
): boolean {
  const at = lastMessageAt ? Date.parse(lastMessageAt) : Number.NaN;
  if (!Number.isFinite(at) || now - at >= WINDOW_MS) return false;
  const closed = closedAt ? Date.parse(closedAt) : Number.NaN;
  return !Number.isFinite(closed) || Math.floor(at / 1000) > Math.floor(closed / 1000);
}
