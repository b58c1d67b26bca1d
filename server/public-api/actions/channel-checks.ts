import { z } from 'zod';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { hasConnectedChannel } from '@/server/channels/channel-list';
import { channelFor } from '@/server/channels/registry';
import type { SubscriptionAnswer } from '@/server/channels/social/subscription';
import { DomainError } from '@/server/errors';
import { type ApiContext, defineAction } from '../action';
import { ApiError } from '../api-error';
import { textParam } from '../params';

/** Both checks ask the connected messenger through its channel adapter. */
async function askChannel(
  ctx: ApiContext,
  clientType: number,
  label: string,
  fn: string,
  args: Record<string, unknown>,
) {
  if (!(await hasConnectedChannel(ctx.db, ctx.projectId, clientType))) {
    throw new ApiError(
      400,
      'channel_not_connected',
      `No ${label} is connected to this project; connect one first (see connected_channels).`,
    );
  }
  try {
    return await channelFor(clientType).call(ctx.projectId, fn, args, { db: ctx.db });
  } catch (error) {
    // What the connected channel cannot do at all (the Cloud API looks no number up) is said as it is.
    if (error instanceof DomainError) throw new ApiError(400, 'not_supported', error.message);
    throw new ApiError(502, 'channel_error', `The ${label} did not answer: ${(error as Error).message}`);
  }
}

export const checkChatapp = defineAction({
  name: 'check_chatapp',
  methods: ['GET', 'POST'],
  summary: 'Whether a phone number uses the chat-app messenger',
  input: z.object({
    phone: textParam(
      z
        .string()
        .refine((p) => phoneDigits(p).length >= 5, { error: 'must be a phone number (at least 5 digits)' }),
    ),
  }),
  example: { phone: '+7 900 123-45-67' },
  responseExample: { exists: true },
  async handle(ctx, input) {
    const answer = await askChannel(ctx, CLIENT_TYPES.chatapp, 'chat-app bot', 'check_chatapp', {
      phone: input.phone,
    });
    return { exists: Boolean((answer as { exists?: boolean })?.exists ?? answer) };
  },
});

export const checkSocialSubscription = defineAction({
  name: 'check_social_subscription',
  methods: ['GET', 'POST'],
  summary: 'Whether a person follows the social-network account',
  description:
    'Whether the person with the Instagram username `user_name` follows the connected Instagram account `login` (docs/channels/instagram.md). Instagram answers only for a person who wrote to the account: they are found among its clients by the username read when they first wrote, and their profile’s `is_user_follow_business` (the User Profile API, asked now) is the answer. A person who never wrote cannot be checked: 404 `user_never_wrote`, never a guess. An account not connected to the project: 404 `account_not_connected`.',
  input: z.object({
    user_name: textParam(z.string().min(1, { error: 'must not be empty' })),
    login: textParam(z.string().min(1, { error: 'must not be empty' })),
  }),
  example: { user_name: 'ann.smith', login: 'our_shop' },
  responseExample: { subscribed: true, client_id: 1234, user_name: 'ann.smith' },
  async handle(ctx, input) {
    const answer = (await askChannel(
      ctx,
      CLIENT_TYPES.social,
      'social-network account',
      'check_social_subscription',
      input,
    )) as SubscriptionAnswer;
    if (answer.status === 'account_not_connected')
      throw new ApiError(
        404,
        'account_not_connected',
        `No Instagram account @${answer.login} is connected to this project (see connected_channels).`,
      );
    if (answer.status === 'never_wrote')
      throw new ApiError(
        404,
        'user_never_wrote',
        `@${answer.userName} never wrote to @${answer.login}: Instagram lets an account look only at the profiles of people who messaged it, so whether they follow it cannot be checked.`,
      );
    return { subscribed: answer.subscribed, client_id: answer.clientId, user_name: answer.username };
  },
});
