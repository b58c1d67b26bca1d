import type { ChannelModule } from './channel-module';
import { CHANNEL_MODULES } from './modules';

/** Each kind's reason its messenger cannot call this server's webhooks (null: it can), for the Channels tab. */
export function webhookAddressProblems(): Record<string, string | null> {
  return Object.fromEntries(
    (CHANNEL_MODULES as readonly ChannelModule[]).flatMap((m) =>
      m.webhookAddressProblem ? [[m.kind, m.webhookAddressProblem()]] : [],
    ),
  );
}
