import type { ClientView, ViewedMessage } from '@/lib/conversation-tests/client-view';
import type { Attachment } from '@/lib/schema';
import { type CloudMessageBody, MEDIA, renderCloudMessage } from './cloud-render';

interface Interactive {
  type: 'button' | 'list';
  body: { text: string };
  action: {
    buttons?: { reply: { title: string } }[];
    sections?: { rows: { title: string }[] }[];
  };
}

/** The kind of file each Cloud API media type is, read back from the renderer's own table. */
const KIND_OF_TYPE = new Map<string, Attachment['type']>(
  Object.entries(MEDIA).map(([kind, type]) => [type, kind as Attachment['type']]),
);

function viewed(send: CloudMessageBody): ViewedMessage {
  const kind = KIND_OF_TYPE.get(send.type);
  if (kind) {
    const file = send[send.type] as { caption?: string };
    return { text: file.caption ?? '', buttons: [], attachments: [kind] };
  }
  if (send.type === 'interactive') {
    const { body, action } = send.interactive as Interactive;
    const titles =
      action.buttons?.map((b) => b.reply.title) ??
      (action.sections ?? []).flatMap((s) => s.rows.map((r) => r.title));
    return { text: body.text, buttons: titles, attachments: [] };
  }
  return { text: (send.text as { body: string }).body, buttons: [], attachments: [] };
}

/**
 * A message as the chat-app's client receives it on the Cloud API (lib/chatapp/cloud-render.ts):
 * each API message is one, reply buttons and a list's rows alike as its buttons.
 */
export const chatappClientView: ClientView = (message) => renderCloudMessage(message, '0').map(viewed);
