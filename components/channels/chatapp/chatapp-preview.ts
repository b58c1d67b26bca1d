import { renderCloudMessage } from '@/lib/chatapp/cloud-render';
import type { Attachment, Buttons } from '@/lib/schema';

/**
 * A bot message as the chat-app messenger shows it, for the simulator's preview: the same
 * Cloud API messages the chat-app channel sends (lib/chatapp/cloud-render), read back as
 * bubbles: reply buttons under their bubble, a list behind its button, numbered text past the
 * limits. Pure, so it is unit-tested.
 */

export type ChatappPreviewMedia = 'Photo' | 'Video' | 'File' | 'Audio';

export interface ChatappPreviewBubble {
  /** The message text, or the media's caption. */
  text: string;
  media?: { kind: ChatappPreviewMedia; url: string };
  /** Reply buttons under the bubble; each sends its text. */
  replyButtons: string[];
  /** A list: its opening button and its rows, each sending its text. */
  list?: { button: string; rows: string[] };
}

const MEDIA: Record<string, ChatappPreviewMedia> = {
  image: 'Photo',
  video: 'Video',
  document: 'File',
  audio: 'Audio',
};

interface Interactive {
  type: 'button' | 'list';
  body: { text: string };
  action: {
    buttons?: { reply: { title: string; id: string } }[];
    button?: string;
    sections?: { rows: { id: string; title: string }[] }[];
  };
}

export function chatappPreview(message: {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}): ChatappPreviewBubble[] {
  return renderCloudMessage(message, '0').map((send) => {
    const media = MEDIA[send.type];
    if (media) {
      const file = send[send.type] as { link: string; caption?: string };
      return { text: file.caption ?? '', media: { kind: media, url: file.link }, replyButtons: [] };
    }
    if (send.type === 'interactive') {
      const i = send.interactive as Interactive;
      if (i.type === 'button')
        return { text: i.body.text, replyButtons: (i.action.buttons ?? []).map((b) => b.reply.id) };
      return {
        text: i.body.text,
        replyButtons: [],
        list: {
          button: i.action.button ?? '',
          rows: (i.action.sections ?? []).flatMap((s) => s.rows.map((r) => r.id)),
        },
      };
    }
    return { text: (send.text as { body: string }).body, replyButtons: [] };
  });
}
