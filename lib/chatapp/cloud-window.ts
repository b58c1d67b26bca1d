/**
 * The Cloud API's customer service window: free-form messages reach a client only within 24
 * hours of the client's last message to the number; after it, only a template message does
 * (the API accepts a free-form one and then reports it failed, 131047). Pure.
 */

/** The client's channel state that holds when they last wrote (the messenger's time, ISO). */
export const LAST_MESSAGE_KEY = 'chatapp_last_message_at';

export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Whether a free-form message sent at `now` is within the window opened by `lastMessageAt`. */
export function windowOpen(lastMessageAt: string | null | undefined, now: number): boolean {
  const at = lastMessageAt ? Date.parse(lastMessageAt) : Number.NaN;
  return Number.isFinite(at) && now - at < WINDOW_MS;
}
