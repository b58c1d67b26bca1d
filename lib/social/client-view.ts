import type { ClientView } from '@/lib/conversation-tests/client-view';
import { renderInstagramMessage } from './instagram-render';

/**
 * A message as the Instagram client receives it (lib/social/instagram-render.ts): each file a
 * message of its own, then the text in parts, the quick replies as the last part's buttons.
 */
export const socialClientView: ClientView = (message) =>
  renderInstagramMessage(message).map((send) =>
    'attachment' in send
      ? { text: '', buttons: [], attachments: [send.attachment.type] }
      : { text: send.text, buttons: (send.quick_replies ?? []).map((q) => q.title), attachments: [] },
  );
