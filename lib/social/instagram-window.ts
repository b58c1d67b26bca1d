/**
 * Instagram's messaging window: a business may answer a person freely within 24 hours of their
 * last message to it; after that, only a person (not a bot) may answer, within 7 days, with the
 * `HUMAN_AGENT` tag. Anything later is refused by the API (code 10, subcode 2534022), so it is
 * not sent: the message fails with the rule named. A person who commented on the account's post
 * (and did not write) may get one private reply to the comment within 7 days. Pure.
 */

/** The client's channel state that holds when they last wrote (the messenger's time, ISO). */
export const LAST_MESSAGE_KEY = 'social_last_message_at';

export const WINDOW_MS = 24 * 60 * 60 * 1000;
export const HUMAN_AGENT_MS = 7 * 24 * 60 * 60 * 1000;

export type WindowRule =
  | { ok: true; messagingType: 'RESPONSE' }
  | { ok: true; messagingType: 'MESSAGE_TAG'; tag: 'HUMAN_AGENT' }
  | { ok: false; error: string };

/**
 * How a message sent at `now` may go: within 24 hours of `lastMessageAt` as a response; an
 * operator's reply (`byOperator`) within 7 days with the HUMAN_AGENT tag; else not at all.
 */
export function windowRule(
  lastMessageAt: string | null | undefined,
  now: number,
  byOperator: boolean,
): WindowRule {
  const at = lastMessageAt ? Date.parse(lastMessageAt) : Number.NaN;
  const age = Number.isFinite(at) ? now - at : Number.POSITIVE_INFINITY;
  if (age < WINDOW_MS) return { ok: true, messagingType: 'RESPONSE' };
  if (byOperator && age < HUMAN_AGENT_MS)
    return { ok: true, messagingType: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' };
  if (!Number.isFinite(age))
    return {
      ok: false,
      error:
        'outside the messaging window: this person never wrote to the Instagram account, and Instagram lets a business message only people who wrote to it first (a comment on a post allows one private reply, within 7 days)',
    };
  return {
    ok: false,
    error: byOperator
      ? 'outside the messaging window: the person last wrote more than 7 days ago; Instagram takes an operator’s reply (the HUMAN_AGENT tag) only within 7 days of their last message'
      : 'outside the 24-hour messaging window: the person last wrote more than 24 hours ago, and Instagram then takes only an operator’s reply from the inbox (HUMAN_AGENT tag, within 7 days), not the bot’s',
  };
}

/**
 * The client's channel state holding the comment on the account's post the bot may still answer
 * with its one private reply (`{"id": comment id, "at": ISO time}`), until it is sent.
 */
export const COMMENT_KEY = 'social_reply_comment';

/** A private reply must be sent within 7 days of the comment. */
export const PRIVATE_REPLY_MS = 7 * 24 * 60 * 60 * 1000;

/** The comment a message sent at `now` may answer privately, or null. */
export function privateReplyTo(state: string | null | undefined, now: number): string | null {
  try {
    const { id, at } = JSON.parse(state ?? 'null') as { id?: unknown; at?: unknown };
    const age = now - Date.parse(String(at));
    return typeof id === 'string' && age >= 0 && age < PRIVATE_REPLY_MS ? id : null;
  } catch {
    return null;
  }
}
