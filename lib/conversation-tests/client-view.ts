import { buttonRows } from '@/lib/channels/message-layout';
import type { Attachment, Buttons } from '@/lib/schema';

/** One message as a channel's client receives it: its text, its buttons' texts, its attachments' types. */
export interface ViewedMessage {
  text: string;
  buttons: string[];
  attachments: string[];
}

/**
 * How a channel shows one of the bot's messages to its client, through its own renderer (the same
 * pure code its adapter sends with): one stored message may reach the client as several (a long
 * text split, an attachment apart), buttons past the channel's limits as numbered text. A
 * conversation test run "as" the channel compares these (docs/conversation-tests.md).
 */
export type ClientView = (message: {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}) => ViewedMessage[];

/** A message as the builder's plain chat shows it: as stored, buttons in their rows' order. */
export function plainView(message: {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}): ViewedMessage[] {
  const buttons = message.buttons
    ? Array.isArray(message.buttons)
      ? message.buttons
      : message.buttons.buttons
    : [];
  return [
    {
      text: message.text,
      buttons: buttons.map((b) => b.text),
      attachments: message.attachments.map((a) => a.type),
    },
  ];
}
