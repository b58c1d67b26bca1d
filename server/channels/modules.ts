import type { ChannelModule } from './channel-module';
import { chatappModule } from './chatapp/module';
import { simulatorModule } from './simulator/module';
import { socialModule } from './social/module';
import { telephonyModule } from './telephony/module';
import { tgModule } from './tg/module';
import { widgetModule } from './widget/module';

/** The channel kinds' modules: one line a kind (docs/architecture.md, "Adding a messenger channel"). */
export const CHANNEL_MODULES: readonly ChannelModule[] = [
  simulatorModule,
  tgModule,
  widgetModule,
  chatappModule,
  socialModule,
  telephonyModule,
];

export const moduleOf = (kind: string): ChannelModule | undefined =>
  CHANNEL_MODULES.find((m) => m.kind === kind);
