import type { ClientView, ViewedMessage } from '@/lib/conversation-tests/client-view';
import { renderViberMessage, type ViberMessage } from './render';

/** A key's text as the client reads it: Viber shows the escaped `&`, `<` and `>` as themselves. */
const unescaped = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** What each Viber message type is of our attachments': any other file arrives as a `file`. */
const KIND: Record<ViberMessage['type'], string | null> = {
  text: null,
  picture: 'image',
  video: 'video',
  file: 'file',
};

/**
 * A message as the Viber client receives it (lib/viber/render.ts): each file a message of its
 * own, then the text in parts, the keyboard's keys as the last message's buttons.
 */
export const viberClientView: ClientView = (message) =>
  renderViberMessage(message).map((send): ViewedMessage => {
    const kind = KIND[send.type];
    return {
      text: 'text' in send ? send.text : '',
      buttons: (send.keyboard?.Buttons ?? []).map((key) => unescaped(key.Text)),
      attachments: kind ? [kind] : [],
    };
  });
