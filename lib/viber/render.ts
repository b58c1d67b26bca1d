import {
  attachmentFileName,
  attachmentMimeType,
  type FileAttachment,
  isFileAttachment,
} from '@/lib/channels/attachment-file';
import { buttonRows, numberedOptions, splitText } from '@/lib/channels/message-layout';
import type { Attachment, Button, Buttons } from '@/lib/schema';

/**
 * One of our outgoing messages → the bodies of Viber's `send_message` that show it (without
 * `receiver` and `sender`, which the adapter adds), within the REST Bot API's limits
 * (developers.viber.com/docs/api/rest-bot-api, "Send Message" and "Keyboards"). Pure.
 * - attachments first, one message each, by URL: a JPEG, PNG or GIF image as a `picture`, an
 *   MP4 video as a `video`, anything else (audio, documents, other image and video types) as a
 *   `file` with its name (at most 256 characters); a video's and a file's `size` in bytes is
 *   required by the API and filled in by the adapter, which asks the file's server;
 * - link attachments join the text as lines;
 * - a text over 7,000 characters is split at a line break or a space;
 * - the options (buttons without an address) are a keyboard of reply buttons on the last
 *   message, in the designer's rows (a row of up to 6 buttons shares Viber's 6 columns; a
 *   longer row wraps), each answering its whole text (`ActionBody`), so a press arrives as the
 *   client's message with the option's text; URL buttons are `open-url` buttons of the same
 *   keyboard. Past the keyboard's limits (more than 24 buttons, a title or an address over 250
 *   characters) and for the hint variant, the options are numbered text instead, a typed number
 *   choosing one, and URL buttons `text: address` lines.
 */

export const VIBER_TEXT_LIMIT = 7000;
export const KEYBOARD_BUTTONS_MAX = 24;
/** The keyboard's width in columns; a button is 1 to 6 columns wide. */
export const KEYBOARD_COLUMNS = 6;
/** The longest button text (and reply or address it answers) the renderer puts on a keyboard. */
export const BUTTON_TEXT_MAX = 250;
export const FILE_NAME_MAX = 256;
/** The text of a message that has only a keyboard to show (a keyboard needs a message). */
export const TEXT_FOR_BUTTONS_ONLY = 'Choose an option';
/** Picture types Viber shows as pictures; others go as files. */
const PICTURE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif']);

export interface OutgoingViberMessage {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}

export interface ViberButton {
  Columns: number;
  Rows: 1;
  ActionType: 'reply' | 'open-url';
  ActionBody: string;
  Text: string;
}

export interface ViberKeyboard {
  Type: 'keyboard';
  DefaultHeight: false;
  Buttons: ViberButton[];
}

/** A message body without receiver and sender; `size` of a video or file is the adapter's to fill. */
export type ViberMessage = (
  | { type: 'text'; text: string }
  | { type: 'picture'; text: string; media: string }
  | { type: 'video'; media: string; size?: number }
  | { type: 'file'; media: string; size?: number; file_name: string }
) & { keyboard?: ViberKeyboard };

export type ViberButtonsLayout = 'none' | 'keyboard' | 'numbered_text';

/** What the buttons become on Viber: a keyboard, or numbered text past its limits (and the hint variant). */
export function viberButtonsLayout(buttons: Buttons | null | undefined): ViberButtonsLayout {
  if (!buttons) return 'none';
  if (!Array.isArray(buttons)) return 'numbered_text';
  if (!buttons.length) return 'none';
  const fits =
    buttons.length <= KEYBOARD_BUTTONS_MAX &&
    buttons.every(
      (b) =>
        b.text.trim().length > 0 &&
        b.text.trim().length <= BUTTON_TEXT_MAX &&
        (!b.url || b.url.length <= BUTTON_TEXT_MAX),
    );
  return fits ? 'keyboard' : 'numbered_text';
}

/** Button text is shown as Viber's limited HTML: the characters that would be tags are escaped. */
const shown = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The buttons as a keyboard: each designer's row shares the 6 columns, a longer row wraps. */
export function viberKeyboard(buttons: Button[]): ViberKeyboard {
  const keys: ViberButton[] = [];
  for (const row of buttonRows(buttons))
    for (let i = 0; i < row.length; i += KEYBOARD_COLUMNS) {
      const line = row.slice(i, i + KEYBOARD_COLUMNS);
      // 6 columns over the line's buttons, the first ones wider when it does not divide evenly.
      const base = Math.floor(KEYBOARD_COLUMNS / line.length);
      const extra = KEYBOARD_COLUMNS - base * line.length;
      line.forEach((b, at) => {
        const text = b.text.trim();
        keys.push({
          Columns: base + (at < extra ? 1 : 0),
          Rows: 1,
          ActionType: b.url ? 'open-url' : 'reply',
          ActionBody: b.url ?? text,
          Text: shown(text),
        });
      });
    }
  return { Type: 'keyboard', DefaultHeight: false, Buttons: keys };
}

function attachmentMessage(attachment: FileAttachment): ViberMessage {
  const type = attachmentMimeType(attachment);
  if (attachment.type === 'image' && PICTURE_TYPES.has(type))
    return { type: 'picture', text: '', media: attachment.url };
  if (attachment.type === 'video' && type === 'video/mp4') return { type: 'video', media: attachment.url };
  const name = attachmentFileName(attachment.url);
  return { type: 'file', media: attachment.url, file_name: fileNameWithin(name) };
}

/** A file name within 256 characters, its extension kept (devices open a file by it). */
function fileNameWithin(name: string): string {
  if (name.length <= FILE_NAME_MAX) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  return name.slice(0, FILE_NAME_MAX - ext.length) + ext;
}

export function renderViberMessage(message: OutgoingViberMessage): ViberMessage[] {
  const all = message.buttons
    ? Array.isArray(message.buttons)
      ? message.buttons
      : message.buttons.buttons
    : [];
  const layout = viberButtonsLayout(message.buttons);
  const files = message.attachments.filter(isFileAttachment);
  const links = message.attachments.filter((a) => a.type === 'link').map((a) => a.url);
  let text = message.text.trim();
  if (layout === 'numbered_text') {
    const options = all.filter((b) => !b.url);
    const hint = Array.isArray(message.buttons) ? '' : (message.buttons?.hint ?? '');
    text = numberedOptions(text, hint, options);
    text = [text, ...all.filter((b) => b.url).map((b) => `${b.text}: ${b.url}`)].filter(Boolean).join('\n');
  }
  text = [text, ...links].filter(Boolean).join('\n');
  const parts: ViberMessage[] = files.map(attachmentMessage);
  for (const part of splitText(text, VIBER_TEXT_LIMIT)) parts.push({ type: 'text', text: part });
  if (layout === 'keyboard') {
    if (!parts.length) parts.push({ type: 'text', text: TEXT_FOR_BUTTONS_ONLY });
    parts[parts.length - 1] = { ...parts[parts.length - 1], keyboard: viberKeyboard(all) };
  }
  return parts;
}

/** The sender's name Viber shows, within its 28 characters. */
export const SENDER_NAME_MAX = 28;
export const senderName = (name: string) =>
  Array.from(name.trim() || 'Bot')
    .slice(0, SENDER_NAME_MAX)
    .join('');
