import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  DEFAULT_WIDGET_SETTINGS,
  readWidgetSettings,
  type WidgetSettings,
  widgetSettingsSchema,
  widgetSnippet,
} from '@/lib/widget/settings';
import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { baseUrl } from '@/server/config/env';
import type { Db } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { notFound, parseInput } from '@/server/errors';

/**
 * Chat widget channels: a project may have several (one per site, say). Each is named on the
 * page by a random public key (its group_id, the `data-channel` of the snippet), which is not
 * a secret: the allowed origins decide which sites may use it.
 */

export const widgetKeySchema = z.string().regex(/^w[A-Za-z0-9_-]{16}$/);

const newKey = () => `w${randomBytes(12).toString('base64url')}`;

export const createWidgetInput = z.object({ settings: widgetSettingsSchema.partial().optional() });

export async function createWidgetChannel(
  db: Db,
  projectId: number,
  input: z.input<typeof createWidgetInput>,
) {
  const { settings } = parseInput(createWidgetInput, input);
  const full: WidgetSettings = { ...DEFAULT_WIDGET_SETTINGS, ...settings };
  const channel = await db.channel.create({
    data: {
      projectId,
      kind: 'widget',
      clientType: CLIENT_TYPES.widget,
      groupId: newKey(),
      name: full.title,
      settings: full as Prisma.InputJsonObject,
    },
  });
  return { id: channel.id, key: channel.groupId };
}

export const updateWidgetInput = z.object({
  channelId: z.number().int().positive(),
  settings: widgetSettingsSchema,
});

export async function updateWidgetSettings(
  db: Db,
  projectId: number,
  input: z.input<typeof updateWidgetInput>,
) {
  const { channelId, settings } = parseInput(updateWidgetInput, input);
  const { count } = await db.channel.updateMany({
    where: { id: channelId, projectId, kind: 'widget' },
    data: { settings: settings as Prisma.InputJsonObject, name: settings.title },
  });
  if (!count) throw notFound(`Chat widget ${channelId} is not in this project.`);
  return readWidgetSettings(settings);
}

/** What the Channels tab shows of a widget channel: its settings and the snippet to copy. */
export function widgetView(channel: { groupId: string; settings: unknown }) {
  return {
    settings: readWidgetSettings(channel.settings),
    snippet: widgetSnippet(baseUrl(), channel.groupId),
  };
}

export interface WidgetChannel {
  id: number;
  projectId: number;
  key: string;
  settings: WidgetSettings;
}
