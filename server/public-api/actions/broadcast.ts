import { z } from 'zod';
import { clientIdParam, idParam, jsonParam, listParam, numberParam, textParam } from '@/lib/api-params';
import { attachmentTypeSchema, incomingButtonsSchema } from '@/lib/schema';
import { startBroadcast } from '@/server/broadcasts/broadcast-jobs';
import { DEFAULT_SHIFT_SECONDS } from '@/server/broadcasts/broadcast-service';
import { defineAction } from '../action';

/** Recipients per call: one query selects them (PostgreSQL takes at most 65,535 parameters). */
const MAX_RECIPIENTS = 10_000;

export const broadcast = defineAction({
  name: 'broadcast',
  methods: ['POST'],
  summary: 'Send one message to many clients',
  description: `To \`clients\`, or to the members of \`list\`, or (neither) to every subscribed client, one every \`shift\` seconds (default ${DEFAULT_SHIFT_SECONDS}). A text, a file or a block (message_id) is required. Sends are durable: a restart loses none and sends none twice.`,
  input: z.object({
    message: textParam().default(''),
    message_id: idParam('must be a block id (a positive whole number)').optional(),
    list: idParam('must be a list id (a positive whole number)').optional(),
    clients: listParam(clientIdParam, MAX_RECIPIENTS).optional(),
    shift: numberParam('must be a number of seconds')
      .pipe(
        z
          .number()
          .min(0, { error: 'must be 0 seconds or more' })
          .max(3600, { error: 'must be at most 3600 seconds' }),
      )
      .default(DEFAULT_SHIFT_SECONDS),
    attachment_type: attachmentTypeSchema.optional(),
    attachment_url: textParam(z.string().url({ error: 'must be a URL' })).optional(),
    buttons: jsonParam(incomingButtonsSchema).optional(),
  }),
  example: { message: 'We are open on Sunday!', list: 7, shift: 0.5 },
  responseExample: { broadcast_id: 12, recipients: 250 },
  async handle(ctx, input) {
    const created = await startBroadcast(ctx.db, ctx.projectId, {
      text: input.message,
      blockId: input.message_id,
      attachments: input.attachment_url
        ? [{ type: input.attachment_type ?? 'file', url: input.attachment_url }]
        : [],
      buttons: input.buttons ?? null,
      shiftSeconds: input.shift,
      clientIds: input.clients,
      listId: input.list,
    });
    return { broadcast_id: created.id, recipients: created.total };
  },
});
