import { z } from 'zod';
import { textParam } from '@/lib/api-params';
import { DomainError } from '@/server/errors';
import { channelApiCheck } from '../channel-module';
import type { SubscriptionAnswer } from './subscription';

/** `check_social_subscription`: the social network's public API check (subscription.ts). */
export const checkSocialSubscription = channelApiCheck({
  name: 'check_social_subscription',
  alias: 'check_insta_subscription',
  summary: 'Whether a person follows the social-network account',
  description:
    'Whether the person with the Instagram username `user_name` follows the connected Instagram account `login` (docs/channels/instagram.md). Instagram answers only for a person who wrote to the account: they are found among its clients by the username read when they first wrote, and their profile’s `is_user_follow_business` (the User Profile API, asked now) is the answer. A person who never wrote cannot be checked: 404 `user_never_wrote`, never a guess. An account not connected to the project: 404 `account_not_connected`.',
  label: 'social-network account',
  input: z.object({
    user_name: textParam(z.string().min(1, { error: 'must not be empty' })),
    login: textParam(z.string().min(1, { error: 'must not be empty' })),
  }),
  example: { user_name: 'ann.smith', login: 'our_shop' },
  responseExample: { subscribed: true, client_id: 1234, user_name: 'ann.smith' },
  fn: 'check_social_subscription',
  answer(result) {
    const answer = result as SubscriptionAnswer;
    if (answer.status === 'account_not_connected')
      throw new DomainError(
        'not_found',
        `No Instagram account @${answer.login} is connected to this project (see connected_channels).`,
        'login',
        'account_not_connected',
      );
    if (answer.status === 'never_wrote')
      throw new DomainError(
        'not_found',
        `@${answer.userName} never wrote to @${answer.login}: Instagram lets an account look only at the profiles of people who messaged it, so whether they follow it cannot be checked.`,
        'user_name',
        'user_never_wrote',
      );
    return { subscribed: answer.subscribed, client_id: answer.clientId, user_name: answer.username };
  },
});
