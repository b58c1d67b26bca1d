import { z } from 'zod';
import { textParam } from '@/lib/api-params';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { channelApiCheck } from '../channel-module';

/** `check_chatapp`: the chat-app's public API check, answered by its adapter's `check_chatapp`. */
export const checkChatapp = channelApiCheck({
  name: 'check_chatapp',
  alias: 'check_whatsapp',
  summary: 'Whether a phone number uses the chat-app messenger',
  label: 'chat-app bot',
  input: z.object({
    phone: textParam(
      z
        .string()
        .refine((p) => phoneDigits(p).length >= 5, { error: 'must be a phone number (at least 5 digits)' }),
    ),
  }),
  example: { phone: '+7 900 123-45-67' },
  responseExample: { exists: true },
  fn: 'check_chatapp',
  answer: (result) => ({ exists: Boolean((result as { exists?: boolean })?.exists ?? result) }),
});
