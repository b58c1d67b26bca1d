/** bot-semantics §8: client types. */
export const CLIENT_TYPES = {
  tg: 1,
  widget: 5,
  chatapp: 6,
  social: 10,
  telephony: 13,
  simulator: 99,
} as const;

/** Each messenger's name, and what one of its clients is called when they have no name. */
const MESSENGERS: Record<number, { label: string; person: string }> = {
  [CLIENT_TYPES.tg]: { label: 'Telegram', person: 'Telegram user' },
  [CLIENT_TYPES.widget]: { label: 'Web widget', person: 'Website visitor' },
  [CLIENT_TYPES.chatapp]: { label: 'Chat app', person: 'Chat app user' },
  [CLIENT_TYPES.social]: { label: 'Social', person: 'Social network user' },
  [CLIENT_TYPES.telephony]: { label: 'Telephony', person: 'Caller' },
  [CLIENT_TYPES.simulator]: { label: 'Simulator', person: 'Test client' },
};

export const messengerLabel = (clientType: number) => MESSENGERS[clientType]?.label ?? `Type ${clientType}`;

/**
 * The name a client is shown by on every screen (the Clients tab, the profile, the inbox and its
 * messages): its name, else the messenger's word for a client and the client's id ("Website
 * visitor 6"), never the messenger's raw id.
 */
export function clientDisplayName(client: { id: number; name: string; clientType: number }): string {
  return client.name.trim() || `${MESSENGERS[client.clientType]?.person ?? 'Client'} ${client.id}`;
}
