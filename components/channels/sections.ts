import type { ChannelSection } from './channel-section';
import { ChatappSection } from './chatapp/chatapp-section';
import { SocialSection } from './social/social-section';
import { TelephonySection } from './telephony/telephony-section';
import { TgSection } from './tg/tg-section';
import { ViberSection } from './viber/viber-section';
import { WidgetSection } from './widget/widget-section';

/**
 * Each channel kind's section of the Channels tab (its folder's `<kind>-section.tsx`), in the
 * order the tab shows them: one line a kind, the screens' side of server/channels/modules.ts.
 */
export const CHANNEL_SECTIONS = {
  tg: TgSection,
  chatapp: ChatappSection,
  social: SocialSection,
  telephony: TelephonySection,
  viber: ViberSection,
  widget: WidgetSection,
} satisfies Record<string, ChannelSection>;
