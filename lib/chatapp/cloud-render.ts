import { attachmentFileName, type FileAttachment, isFileAttachment } from '@/lib/channels/attachment-file';
import { optionsAndText, splitText } from '@/lib/channels/message-layout';
import type { Attachment, Button, Buttons } from '@/lib/schema';

/**
 * One of our outgoing messages → the WhatsApp Cloud API messages that show it (the body of
 * each `POST /{phone-number-id}/messages`), within the API's limits:
 * - attachments first, by link, in order (a document with its file name, which the client sees
 *   as its title); one image, video or document with a text of at most 1024 characters carries
 *   the text as its caption;
 * - text over 4096 characters is split (an interactive message's body takes 1024: the text
 *   before it goes as plain messages);
 * - up to 3 buttons whose titles fit 20 characters become reply buttons, up to 10 whose titles
 *   fit 24 a list, any more (and the hint variant) numbered text; a press answers the button's
 *   whole text (its id), so the arrows match it as they match a typed text;
 * - URL buttons, which the API cannot show beside reply buttons, become `text: address` lines.
 */

export const CLOUD_TEXT_LIMIT = 4096;
export const CLOUD_CAPTION_LIMIT = 1024;
export const INTERACTIVE_BODY_LIMIT = 1024;
export const REPLY_BUTTONS_MAX = 3;
export const REPLY_TITLE_MAX = 20;
export const LIST_ROWS_MAX = 10;
export const LIST_TITLE_MAX = 24;
/** A reply button's id is at most 256 characters, a list row's 200. */
const BUTTON_ID_MAX = 256;
const ROW_ID_MAX = 200;
/** The list's opening button, which the API requires (20 characters at most). */
export const LIST_BUTTON_TEXT = 'Choose';
/** An interactive message needs a body: a block with only buttons gets this. */
export const BODY_FOR_BUTTONS_ONLY = 'Choose an option';

export interface OutgoingCloudMessage {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}

export type CloudMessageBody = Record<string, unknown> & { type: string };

/** How the message's buttons are shown on the messenger, for the simulator and lint too. */
export type CloudButtonsLayout = 'none' | 'reply_buttons' | 'list' | 'numbered_text';

/** The Cloud API's message type for each kind of file. */
export const MEDIA: Record<FileAttachment['type'], 'image' | 'video' | 'document' | 'audio'> = {
  image: 'image',
  video: 'video',
  file: 'document',
  audio: 'audio',
};

/** What the buttons become: reply buttons, a list, or numbered text past the API's limits. */
export function cloudButtonsLayout(buttons: Buttons | null | undefined): CloudButtonsLayout {
  if (!buttons) return 'none';
  if (!Array.isArray(buttons)) return 'numbered_text';
  const options = buttons.filter((b) => !b.url);
  if (!options.length) return 'none';
  const distinct = new Set(options.map((b) => b.text.trim())).size === options.length;
  const longest = Math.max(...options.map((b) => b.text.trim().length));
  if (distinct && options.length <= REPLY_BUTTONS_MAX && longest <= REPLY_TITLE_MAX) return 'reply_buttons';
  if (distinct && options.length <= LIST_ROWS_MAX && longest <= LIST_TITLE_MAX) return 'list';
  return 'numbered_text';
}

export function renderCloudMessage(message: OutgoingCloudMessage, to: string): CloudMessageBody[] {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to };
  const layout = cloudButtonsLayout(message.buttons);
  const shown = optionsAndText(message.text, message.buttons, layout === 'numbered_text');
  const options = shown.options;
  let text = shown.text;

  const sends: CloudMessageBody[] = [];
  const files = message.attachments.filter(isFileAttachment);
  const captioned =
    files.length === 1 &&
    files[0].type !== 'audio' &&
    (layout === 'none' || layout === 'numbered_text') &&
    text.length > 0 &&
    text.length <= CLOUD_CAPTION_LIMIT;
  for (const file of files) {
    const type = MEDIA[file.type];
    sends.push({
      ...base,
      type,
      [type]: {
        link: file.url,
        ...(type === 'document' ? { filename: attachmentFileName(file.url) } : {}),
        ...(captioned ? { caption: text } : {}),
      },
    });
  }
  const linkLines = message.attachments.filter((a) => a.type === 'link').map((a) => a.url);
  if (linkLines.length) text = [text, ...linkLines].filter(Boolean).join('\n');
  if (captioned && !linkLines.length) return sends;

  if (layout === 'reply_buttons' || layout === 'list') {
    const parts = text ? splitText(text, CLOUD_TEXT_LIMIT) : [];
    let body = parts.pop() ?? BODY_FOR_BUTTONS_ONLY;
    if (body.length > INTERACTIVE_BODY_LIMIT) {
      const tail = splitText(body, INTERACTIVE_BODY_LIMIT);
      body = tail.pop() as string;
      parts.push(...tail);
    }
    for (const part of parts) sends.push({ ...base, type: 'text', text: { body: part } });
    sends.push({ ...base, type: 'interactive', interactive: interactive(layout, body, options) });
    return sends;
  }
  for (const part of splitText(text, CLOUD_TEXT_LIMIT))
    sends.push({ ...base, type: 'text', text: { body: part, preview_url: /https?:\/\//.test(part) } });
  return sends;
}

function interactive(layout: 'reply_buttons' | 'list', body: string, options: Button[]) {
  if (layout === 'reply_buttons')
    return {
      type: 'button',
      body: { text: body },
      action: {
        buttons: options.map((b) => ({
          type: 'reply',
          reply: { id: b.text.trim().slice(0, BUTTON_ID_MAX), title: b.text.trim() },
        })),
      },
    };
  return {
    type: 'list',
    body: { text: body },
    action: {
      button: LIST_BUTTON_TEXT,
      sections: [
        { rows: options.map((b) => ({ id: b.text.trim().slice(0, ROW_ID_MAX), title: b.text.trim() })) },
      ],
    },
  };
}

/**
 * A template parameter as the API takes it: it refuses one with a new line, a tab or more than
 * four spaces in a row (132018), so each run of white space holding a line break or a tab, and
 * each run of five spaces or more, becomes one space.
 */
export function flatTemplateParameter(text: string): string {
  return text.replace(/\s*[\n\r\t\v\f\u2028\u2029]\s*| {5,}/g, ' ');
}

/** A template message (outside the customer service window), its body's parameters in order. */
export function renderCloudTemplate(
  to: string,
  template: { name: string; language: string },
  parameters: string[],
): CloudMessageBody {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(parameters.length
        ? {
            components: [
              {
                type: 'body',
                parameters: parameters.map((text) => ({ type: 'text', text: flatTemplateParameter(text) })),
              },
            ],
          }
        : {}),
    },
  };
}

/**
 * What a template send leaves out of the message, for its history: a template carries only
 * its own text and parameters, so the message's buttons and attachments (and its text, when no
 * parameter is `{message}`) do not reach the client. Null when nothing is left out.
 */
export function templateLeftOut(message: OutgoingCloudMessage, carriesText: boolean): string | null {
  const all = message.buttons
    ? Array.isArray(message.buttons)
      ? message.buttons
      : message.buttons.buttons
    : [];
  const parts: string[] = [];
  if (!carriesText && message.text.trim()) parts.push('its text');
  if (all.length) parts.push(`its buttons (${all.map((b) => b.text.trim()).join(', ')})`);
  const attached = message.attachments.map((a) => (isFileAttachment(a) ? attachmentFileName(a.url) : a.url));
  if (attached.length)
    parts.push(
      `${attached.length === 1 ? 'its attachment' : `its ${attached.length} attachments`} (${attached.join(', ')})`,
    );
  if (!parts.length) return null;
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}
