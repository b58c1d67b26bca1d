import { z } from 'zod';
import { MAX_ALLOWED_ORIGINS, parseAllowedOrigin } from '@/lib/cors';

/**
 * A chat widget channel's settings, as the Channels tab edits them and widget.js draws them.
 * Shared by the form (its checks) and the server (the same checks at the boundary).
 */

export const WIDGET_POSITIONS = ['right', 'left'] as const;
export const WIDGET_THEMES = ['light', 'dark', 'auto'] as const;

const colour = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: `${name} must be a colour like #2563eb` });

const origin = z.string().transform((text, ctx) => {
  const parsed = parseAllowedOrigin(text);
  if ('error' in parsed) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed.origin;
});

export const widgetSettingsSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, { error: 'the title is empty' })
    .max(80, { error: 'the title is over 80 characters' }),
  greeting: z.string().trim().max(500, { error: 'the greeting is over 500 characters' }),
  accentColor: colour('the accent colour'),
  textColor: colour('the text colour on the accent'),
  position: z.enum(WIDGET_POSITIONS),
  theme: z.enum(WIDGET_THEMES),
  /** The sites the widget works on; none means nowhere yet. */
  allowedOrigins: z
    .array(origin)
    .max(MAX_ALLOWED_ORIGINS, { error: `at most ${MAX_ALLOWED_ORIGINS} allowed origins` })
    .transform((list) => [...new Set(list)]),
});
export type WidgetSettings = z.output<typeof widgetSettingsSchema>;

export const DEFAULT_WIDGET_SETTINGS: WidgetSettings = {
  title: 'Chat with us',
  greeting: 'Hello! How can we help?',
  accentColor: '#2563eb',
  textColor: '#ffffff',
  position: 'right',
  theme: 'auto',
  allowedOrigins: [],
};

/** Stored settings read back; anything missing or broken falls back to the default. */
export function readWidgetSettings(stored: unknown): WidgetSettings {
  const parsed = widgetSettingsSchema.safeParse({ ...DEFAULT_WIDGET_SETTINGS, ...(stored as object) });
  return parsed.success ? parsed.data : DEFAULT_WIDGET_SETTINGS;
}

/** What a page may learn about the widget (widget.js's `config`): no origins list. */
export type WidgetPublicConfig = Omit<WidgetSettings, 'allowedOrigins'>;

export const widgetSnippet = (baseUrl: string, channelKey: string) =>
  `<script src="${baseUrl.replace(/\/+$/, '')}/widget.js" data-channel="${channelKey}" async></script>`;
