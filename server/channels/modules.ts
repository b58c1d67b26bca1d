import type { ChannelModule } from './channel-module';
import * as chatapp from './chatapp/module';
import * as simulator from './simulator/module';
import * as social from './social/module';
import * as telephony from './telephony/module';
import * as tg from './tg/module';
import * as viber from './viber/module';
import * as widget from './widget/module';

/**
 * The channel kinds, each its folder's `module.ts` (its `kind`, its `channelModule`, and the
 * `view` of what the Channels tab shows of its channels): one line a kind (docs/architecture.md,
 * "Adding a messenger channel").
 */
export const CHANNEL_KINDS = [simulator, tg, widget, chatapp, social, telephony, viber] as const;

export const CHANNEL_MODULES = CHANNEL_KINDS.map((k) => k.channelModule);

export const moduleOf = (kind: string): ChannelModule | undefined =>
  (CHANNEL_MODULES as readonly ChannelModule[]).find((m) => m.kind === kind);
