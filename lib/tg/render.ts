import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { buttonRows, numberedOptions, splitText } from '@/lib/channels/message-layout';
import { type Attachment, type Button, type Buttons, CALLBACK_DATA_MAX_BYTES } from '@/lib/schema';

/**
 * One of our outgoing messages → the Bot API calls that show it on the tg messenger.
 *
 * - Plain text, no parse_mode: nothing the designer writes is read as markup, so nothing is
 *   escaped and no text can break a send.
 * - Attachments go first, in order, then the text, so the keyboard sits under the text (the
 *   keyboard always rides on the last call). One image, video, file or audio with a text of at
 *   most 1024 characters becomes one call with the text as its caption.
 * - A list with any inline or URL button becomes one inline keyboard (a message shows one
 *   keyboard; a reply button there sends its text back, as a reply button does); otherwise a
 *   reply keyboard. The hint variant becomes text with numbered options, no keyboard.
 */

export const TEXT_LIMIT = 4096;
export const CAPTION_LIMIT = 1024;
/** callback_data of a button whose text does not fit: this prefix and a hash of the text. */
export const CALLBACK_ID_PREFIX = 'bb:';

export type TgSendMethod = 'sendMessage' | 'sendPhoto' | 'sendVideo' | 'sendDocument' | 'sendAudio';

export interface TgSend {
  method: TgSendMethod;
  params: Record<string, unknown>;
}

export interface RenderedMessage {
  sends: TgSend[];
  /** callback_data → button text for the buttons whose text did not fit in callback_data. */
  callbackTexts: Record<string, string>;
}

export interface OutgoingTgMessage {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}

/** A keyboard needs a message to ride on; a block with only buttons gets this text. */
export const EMPTY_TEXT_WITH_BUTTONS = '…';

/** The Bot API call and field that send each kind of file. */
export const MEDIA: Record<Exclude<Attachment['type'], 'link'>, { method: TgSendMethod; field: string }> = {
  image: { method: 'sendPhoto', field: 'photo' },
  video: { method: 'sendVideo', field: 'video' },
  file: { method: 'sendDocument', field: 'document' },
  audio: { method: 'sendAudio', field: 'audio' },
};

const byteLength = (text: string) => utf8ToBytes(text).length;

/**
 * The callback_data of a button: its own, its text when that fits, else a stable short id. Own
 * data over 64 bytes (the schema refuses it now; a bot saved before may have it) is never sent,
 * as the messenger would refuse the whole message: the button then sends its text.
 */
export function callbackData(button: Button): string {
  if (button.callback_data && byteLength(button.callback_data) <= CALLBACK_DATA_MAX_BYTES)
    return button.callback_data;
  if (byteLength(button.text) <= CALLBACK_DATA_MAX_BYTES && !button.text.startsWith(CALLBACK_ID_PREFIX))
    return button.text;
  return CALLBACK_ID_PREFIX + bytesToHex(sha256(utf8ToBytes(button.text))).slice(0, 20);
}

function replyMarkup(
  buttons: Button[],
  callbackTexts: Record<string, string>,
): Record<string, unknown> | undefined {
  if (!buttons.length) return undefined;
  const rows = buttonRows(buttons);
  if (!buttons.some((b) => b.type === 'inline' || b.url))
    return { keyboard: rows.map((row) => row.map((b) => ({ text: b.text }))), resize_keyboard: true };
  return {
    inline_keyboard: rows.map((row) =>
      row.map((b) => {
        if (b.url) return { text: b.text, url: b.url };
        const data = callbackData(b);
        if (data !== b.text && data !== b.callback_data) callbackTexts[data] = b.text;
        return { text: b.text, callback_data: data };
      }),
    ),
  };
}

export function renderMessage(
  message: OutgoingTgMessage,
  target: { chat_id: number | string; business_connection_id?: string },
): RenderedMessage {
  const callbackTexts: Record<string, string> = {};
  const hint = message.buttons && !Array.isArray(message.buttons) ? message.buttons : null;
  const text = hint ? numberedOptions(message.text, hint.hint, hint.buttons) : message.text.trim();
  const markup = replyMarkup(Array.isArray(message.buttons) ? message.buttons : [], callbackTexts);
  const base = { ...target };

  const sends: TgSend[] = message.attachments.map((a) =>
    a.type === 'link'
      ? { method: 'sendMessage', params: { text: a.url, ...base } }
      : { method: MEDIA[a.type].method, params: { [MEDIA[a.type].field]: a.url, ...base } },
  );
  const single = sends.length === 1 && message.attachments[0].type !== 'link' ? sends[0] : null;
  if (single && text && text.length <= CAPTION_LIMIT) single.params.caption = text;
  else {
    const parts = splitText(text, TEXT_LIMIT);
    if (!parts.length && !sends.length && markup) parts.push(EMPTY_TEXT_WITH_BUTTONS);
    for (const part of parts) sends.push({ method: 'sendMessage', params: { text: part, ...base } });
  }
  if (markup && sends.length) sends[sends.length - 1].params.reply_markup = markup;
  return { sends, callbackTexts };
}
