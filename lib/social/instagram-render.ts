import { optionsAndText, splitText, utf8Size } from '@/lib/channels/message-layout';
import type { Attachment, Buttons } from '@/lib/schema';

/**
 * One of our outgoing messages → the Instagram messaging API's `message` objects that show it
 * (each the `message` of one `POST /{ig-user-id}/messages`), within the API's limits:
 * - attachments first, one message each, by URL (image, video, audio, file); links join the text;
 * - a text over 1,000 bytes (UTF-8: a Cyrillic letter is 2, an emoji 4) is split at a line break
 *   or a space, never inside a character;
 * - the options (buttons without an address) are always in the text as numbered lines, a typed
 *   number choosing one (as in the chat-app's lib/chatapp/cloud-render.ts); up to 13 distinct
 *   ones whose titles fit 20 characters are also quick replies on the last text, a tap on the
 *   phone (a press answers the button's whole text as its payload, so the arrows match it as
 *   they match a typed text); more, longer ones and the hint variant are the numbered text alone.
 *   Why both: Instagram on desktop and the web shows no quick replies, and no button or generic
 *   template either (Meta's pages on each: "not available on desktop"), so buttons would not
 *   help; a business wants every customer to see its options and answer, wherever they read;
 * - URL buttons, which quick replies cannot carry, become `text: address` lines.
 */

/** A text's limit, in UTF-8 bytes. */
export const INSTAGRAM_TEXT_LIMIT = 1000;
export const QUICK_REPLIES_MAX = 13;
export const QUICK_REPLY_TITLE_MAX = 20;
/** A quick reply's payload is at most 1,000 characters. */
export const QUICK_REPLY_PAYLOAD_MAX = 1000;
/** The text of a message with nothing else to show (quick replies and a private reply need one). */
export const TEXT_FOR_BUTTONS_ONLY = 'Choose an option';

export interface OutgoingInstagramMessage {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}

export interface QuickReply {
  content_type: 'text';
  title: string;
  payload: string;
}

export type InstagramMessage =
  | { text: string; quick_replies?: QuickReply[] }
  | { attachment: { type: 'image' | 'video' | 'audio' | 'file'; payload: { url: string } } };

export type InstagramButtonsLayout = 'none' | 'quick_replies' | 'numbered_text';

/** What the buttons become on Instagram: quick replies (with numbered text), or numbered text alone past their limits. */
export function instagramButtonsLayout(buttons: Buttons | null | undefined): InstagramButtonsLayout {
  if (!buttons) return 'none';
  if (!Array.isArray(buttons)) return 'numbered_text';
  const options = buttons.filter((b) => !b.url);
  if (!options.length) return 'none';
  const titles = options.map((b) => b.text.trim());
  const fits =
    new Set(titles).size === titles.length &&
    titles.length <= QUICK_REPLIES_MAX &&
    titles.every((t) => t.length <= QUICK_REPLY_TITLE_MAX);
  return fits ? 'quick_replies' : 'numbered_text';
}

export function renderInstagramMessage(message: OutgoingInstagramMessage): InstagramMessage[] {
  const layout = instagramButtonsLayout(message.buttons);
  // Numbered beside the quick replies too: desktop Instagram shows only the text.
  const shown = optionsAndText(message.text, message.buttons, layout !== 'none');
  const links = message.attachments.filter((a) => a.type === 'link').map((a) => a.url);
  const text = [shown.text, ...links].filter(Boolean).join('\n');

  const sends: InstagramMessage[] = message.attachments
    .filter((a): a is Attachment & { type: 'image' | 'video' | 'audio' | 'file' } => a.type !== 'link')
    .map((a) => ({ attachment: { type: a.type, payload: { url: a.url } } }));
  const parts = splitText(text, INSTAGRAM_TEXT_LIMIT, utf8Size);
  if (layout !== 'quick_replies') return [...sends, ...parts.map((part) => ({ text: part }))];
  const last = parts.pop() ?? TEXT_FOR_BUTTONS_ONLY;
  const quick_replies = shown.options.map(
    (b): QuickReply => ({
      content_type: 'text',
      title: b.text.trim(),
      payload: b.text.trim().slice(0, QUICK_REPLY_PAYLOAD_MAX),
    }),
  );
  return [...sends, ...parts.map((part) => ({ text: part })), { text: last, quick_replies }];
}

/**
 * The one private reply to a comment on the account's post: text only, of at most 1,000 bytes,
 * its options as numbered text (a typed number chooses one) and its files and links as
 * addresses. Past the limit the message's own text is cut (with "…"), so the options and
 * addresses still reach the person whole; only options that alone exceed it are cut too.
 */
export function renderPrivateReply(message: OutgoingInstagramMessage): { text: string } {
  const all = message.buttons
    ? Array.isArray(message.buttons)
      ? message.buttons
      : message.buttons.buttons
    : [];
  const buttons = all.length
    ? { hint: Array.isArray(message.buttons) ? '' : (message.buttons?.hint ?? ''), buttons: all }
    : null;
  const numbered = all.some((b) => !b.url);
  const withText = (text: string) =>
    [optionsAndText(text, buttons, numbered).text, ...message.attachments.map((a) => a.url)]
      .filter(Boolean)
      .join('\n');
  const whole = withText(message.text);
  if (utf8Size(whole) <= INSTAGRAM_TEXT_LIMIT) return { text: whole || TEXT_FOR_BUTTONS_ONLY };
  const room = INSTAGRAM_TEXT_LIMIT - utf8Size(withText(ELLIPSIS));
  const [cut] = room > 0 ? splitText(message.text, room, utf8Size) : [];
  if (cut) return { text: withText(`${cut}${ELLIPSIS}`) };
  return { text: splitText(whole, INSTAGRAM_TEXT_LIMIT, utf8Size)[0] };
}

const ELLIPSIS = '…';
