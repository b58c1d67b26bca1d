import type { ReactNode } from 'react';
import type { Attachment, Buttons } from '@/lib/schema';

/** One of the bot's messages as the messengers' renderers take it. */
export interface PreviewContent {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}

/**
 * How the simulator draws the bot's messages "as the messenger shows them" for one kind
 * (`components/channels/<kind>/`), listed in components/channels/previews.ts.
 */
export interface ChannelPreview {
  /** The switch's words: "Preview as: tg messenger". */
  label: string;
  /** The conversation's background, the messenger's own colour (a class). */
  background: string;
  /** One message as the messenger draws it; a pressed button sends its text. */
  message(content: PreviewContent, onPress: (text: string) => void): ReactNode;
  /** What the messenger keeps below the conversation (tg's reply keyboard), from the messages so far. */
  footer?(contents: readonly PreviewContent[], onPress: (text: string) => void): ReactNode;
}
