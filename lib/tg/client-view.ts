import type { ClientView } from '@/lib/conversation-tests/client-view';
import type { Attachment } from '@/lib/schema';
import { MEDIA, renderMessage } from './render';

interface Markup {
  inline_keyboard?: { text: string }[][];
  keyboard?: { text: string }[][];
}

/** The kind of file each media call sends, read back from the renderer's own table. */
const KIND_OF_METHOD = new Map<string, Attachment['type']>(
  Object.entries(MEDIA).map(([kind, { method }]) => [method, kind as Attachment['type']]),
);

/**
 * A message as the tg messenger's client receives it: each Bot API call of lib/tg/render.ts is
 * one message, its text or a file's caption, its keyboard's buttons (inline or reply) in rows.
 */
export const tgClientView: ClientView = (message) =>
  renderMessage(message, { chat_id: 0 }).sends.map(({ method, params }) => {
    const kind = KIND_OF_METHOD.get(method);
    const markup = params.reply_markup as Markup | undefined;
    const rows = markup?.inline_keyboard ?? markup?.keyboard ?? [];
    return {
      text: String((kind ? params.caption : params.text) ?? ''),
      buttons: rows.flat().map((b) => b.text),
      attachments: kind ? [kind] : [],
    };
  });
