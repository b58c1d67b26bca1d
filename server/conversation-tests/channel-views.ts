import type { ClientView } from '@/lib/conversation-tests/client-view';
import type { ChannelModule } from '@/server/channels/channel-module';
import { CHANNEL_MODULES } from '@/server/channels/modules';

let views: ReadonlyMap<string, ClientView> | undefined;

/** How each channel kind's client sees a message, from the kinds' modules (`clientView`). */
export function channelViews(): ReadonlyMap<string, ClientView> {
  const modules: readonly ChannelModule[] = CHANNEL_MODULES;
  views ??= new Map(modules.flatMap((m) => (m.clientView ? [[m.kind, m.clientView] as const] : [])));
  return views;
}
