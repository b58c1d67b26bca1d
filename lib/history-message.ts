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
  /** The team member who sent it (an operator's reply), by name (else e-mail); null: no member. */
  operator: string | null;
  delivered: boolean;
  error: string | null;
  /** An outgoing message's delivery (null for incoming ones; see DELIVERY_STATUSES). */
  status: DeliveryStatus | null;
  createdAt: Date;
}

/**
 * An outgoing message's delivery, in the order it moves: queued until its channel answers;
 * sent when the messenger took it; delivered to the client's device (a chat that shows what is
 * stored, the widget's or the simulator's, has it delivered at once); read; or failed with the
 * messenger's error. Reports never move a message back (server/channels/delivery-status.ts).
 */
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

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

const SOURCE_LABELS: Record<Exclude<MessageSource, 'client' | 'bot'>, { label: string; hint: string }> = {
  api: { label: 'API', hint: 'Caused by the public API' },
  crm: { label: 'CRM', hint: 'Sent from the CRM (the client profile)' },
  callback: { label: 'Callback', hint: "Caused by a formula's callback() or message()" },
  telephony: { label: 'Call', hint: 'From a phone call' },
  other: { label: 'Outside', hint: 'From outside the bot' },
};

/**
 * Who sent a message, as every screen labels it: the client by their display name
 * (`clientDisplayName`), the bot as "Bot", an operator by their name; a message from the API,
 * the CRM without a member, a callback, by its source. `system`: an incoming message from
 * outside, never shown to the client.
 */
export function messageSender(
  m: Pick<HistoryMessage, 'direction' | 'messageFromOutside' | 'operator'>,
  clientName: string,
): { kind: 'client' | 'bot' | 'operator' | 'source'; label: string; hint: string; system: boolean } {
  const source = messageSource(m);
  const system = isSystemMessage(m);
  if (source === 'client')
    return { kind: 'client', label: clientName, hint: 'Written by the client', system };
  if (source === 'bot') return { kind: 'bot', label: 'Bot', hint: 'Sent by the bot', system };
  if (source === 'crm' && m.operator)
    return { kind: 'operator', label: m.operator, hint: 'Sent by an operator of the team', system };
  return { kind: 'source', ...SOURCE_LABELS[source], system };
}
