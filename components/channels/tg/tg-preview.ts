import type { Attachment, Buttons } from '@/lib/schema';
import { renderMessage, type TgSend } from '@/lib/tg/render';

/**
 * A bot message as the tg messenger shows it, for the simulator's preview: the same Bot API
 * calls the tg channel makes (lib/tg/render), read back as bubbles. Pure, so it is unit-tested.
 */

export type TgPreviewMedia = 'Photo' | 'Video' | 'File' | 'Audio';

export interface TgPreviewButton {
  text: string;
  url?: string;
}

export interface TgPreviewBubble {
  /** The message text, or the media's caption. */
  text: string;
  media?: { kind: TgPreviewMedia; url: string };
  /** Rows under the bubble; a URL button opens its link. */
  inlineKeyboard: TgPreviewButton[][];
}

export interface TgPreview {
  bubbles: TgPreviewBubble[];
  /** Rows under the input; the messenger keeps it until another message brings one. */
  replyKeyboard: string[][] | null;
}

const MEDIA: Record<string, { kind: TgPreviewMedia; field: string }> = {
  sendPhoto: { kind: 'Photo', field: 'photo' },
  sendVideo: { kind: 'Video', field: 'video' },
  sendDocument: { kind: 'File', field: 'document' },
  sendAudio: { kind: 'Audio', field: 'audio' },
};

interface Markup {
  inline_keyboard?: TgPreviewButton[][];
  keyboard?: { text: string }[][];
}

function bubble(send: TgSend): TgPreviewBubble {
  const { params } = send;
  const markup = params.reply_markup as Markup | undefined;
  const media = MEDIA[send.method];
  return {
    text: String((media ? params.caption : params.text) ?? ''),
    ...(media ? { media: { kind: media.kind, url: String(params[media.field]) } } : {}),
    inlineKeyboard: (markup?.inline_keyboard ?? []).map((row) =>
      row.map((b) => (b.url ? { text: b.text, url: b.url } : { text: b.text })),
    ),
  };
}

export function tgPreview(message: {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}): TgPreview {
  const { sends } = renderMessage(message, { chat_id: 0 });
  const keyboard = sends
    .map((s) => (s.params.reply_markup as Markup | undefined)?.keyboard)
    .find((k) => k !== undefined);
  return {
    bubbles: sends.map(bubble),
    replyKeyboard: keyboard ? keyboard.map((row) => row.map((b) => b.text)) : null,
  };
}
