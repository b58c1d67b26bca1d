import type { Attachment, Button } from '@/lib/schema';

/** bot-semantics §3: where a message came from (`message_from_outside`); `crm` is also an operator's reply from the inbox. */
export const MESSAGE_FROM = { client: 0, api: 1, crm: 2, callback: 3, telephony: 5 } as const;

/**
 * One message of a client's history as the UI shows it (the client profile, the inbox): the
 * shape `clients.history` returns. The id is the message's bigint id as decimal text.
 */
export interface HistoryMessage {
  id: string;
  direction: 'in' | 'out';
  text: string;
  attachments: Attachment[];
  /** The buttons sent with it, in order, whichever variant the block used. */
  buttons: Button[];
  /** The block that sent it (out) or the client's block when it arrived (in). */
  blockId: number | null;
  messageFromOutside: number;
  delivered: boolean;
  error: string | null;
  createdAt: Date;
}

export type MessageSource = 'client' | 'bot' | 'api' | 'crm' | 'callback' | 'telephony' | 'other';

/**
 * Who a message is from, for its mark: an incoming message from outside is a system message
 * (a callback, never shown to the client); an outgoing one was sent by the API, the CRM (an
 * operator) or a formula's `message()` rather than by the bot's own blocks.
 */
export function messageSource(m: Pick<HistoryMessage, 'direction' | 'messageFromOutside'>): MessageSource {
  switch (m.messageFromOutside) {
    case MESSAGE_FROM.client:
      return m.direction === 'in' ? 'client' : 'bot';
    case MESSAGE_FROM.api:
      return 'api';
    case MESSAGE_FROM.crm:
      return 'crm';
    case MESSAGE_FROM.callback:
      return 'callback';
    case MESSAGE_FROM.telephony:
      return 'telephony';
    default:
      return 'other';
  }
}

/** A message from outside that arrived as input: routed like a client's message, never shown to them. */
export const isSystemMessage = (m: Pick<HistoryMessage, 'direction' | 'messageFromOutside'>) =>
  m.direction === 'in' && m.messageFromOutside !== MESSAGE_FROM.client;
