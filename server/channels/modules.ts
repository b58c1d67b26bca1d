import type { ChannelModule } from './channel-module';
import { tgModule } from './tg/module';

/** The channel kinds' modules: one line a kind (docs/architecture.md, "Adding a messenger channel"). */
export const CHANNEL_MODULES: readonly ChannelModule[] = [tgModule];

export const moduleOf = (kind: string): ChannelModule | undefined =>
  CHANNEL_MODULES.find((m) => m.kind === kind);
