import type { ClientView } from '@/lib/conversation-tests/client-view';
import { toWidgetMessage } from './messages';

/**
 * A message as widget.js draws it, from what the history sends it (lib/widget/messages.ts): one
 * bubble, the hint as its text when it has none, files with a safe address, its inline and link
 * buttons, then the reply buttons under the dialog, each in their rows.
 */
export const widgetClientView: ClientView = (message) => {
  const shown = toWidgetMessage({
    // Only what the bubble shows matters here: a stored bot message's other fields are neutral.
    id: 0n,
    direction: 'out',
    text: message.text,
    attachments: message.attachments,
    buttons: message.buttons,
    createdAt: new Date(0),
    blockId: null,
    currentBlockId: null,
    operatorName: null,
    operatorAvatar: null,
  });
  return [
    {
      text: shown.text,
      buttons: [...shown.inline, ...shown.replies].flat().map((b) => b.text),
      attachments: shown.attachments.map((a) => a.type),
    },
  ];
};
