import { z } from 'zod';
import { connectFieldMeta } from '@/lib/channels/connect-inputs';

/**
 * What connecting a Viber bot asks for (docs/channels/viber.md): its authentication token. The
 * bot's name and avatar, shown as the sender of its messages, are read from Viber with it.
 */
export const connectViberInput = z.object({
  token: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{8,40}(-[A-Za-z0-9]{8,40}){1,4}$/, {
      error:
        'must be the bot’s token, like 4453b6ac12345678-e02c5f12174805f9-daec9cbb5448c51f: Viber → More → Settings → Bots → Edit info → Your app key',
    })
    .register(connectFieldMeta, {
      label: 'Authentication token',
      hint: 'In Viber: More → Settings → Bots → your bot → Edit info → Your app key.',
      placeholder: '4453b6ac12345678-e02c5f12174805f9-daec9cbb5448c51f',
      secret: true,
    }),
});
