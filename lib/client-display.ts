import { descriptorOfType } from './channels/descriptors';

/** bot-semantics §8: client types (lib/channels/descriptors.ts). */
export { CLIENT_TYPES } from './channels/descriptors';

export const messengerLabel = (clientType: number) =>
  descriptorOfType(clientType)?.label ?? `Type ${clientType}`;

/**
 * The name a client is shown by on every screen (the Clients tab, the profile, the inbox and its
 * messages): its name, else the messenger's word for a client and the client's id ("Website
 * visitor 6"), never the messenger's raw id.
 */
export function clientDisplayName(client: { id: number; name: string; clientType: number }): string {
  return client.name.trim() || `${descriptorOfType(client.clientType)?.person ?? 'Client'} ${client.id}`;
}
