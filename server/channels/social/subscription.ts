import type { PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';
import { instagramApi, SOCIAL_CLIENT_TYPE, socialCredentials } from './channel-service';
import { USERNAME_KEY } from './updates';

/**
 * `check_social_subscription(user_name, login)`: does this person follow the account? Instagram
 * answers it only for a person who wrote to the account (the User Profile API needs their
 * Instagram-scoped id and their consent, given by writing), so the person is found by their
 * username among the account's clients (kept as they first wrote), and their profile's
 * `is_user_follow_business` is the answer. Someone who never wrote cannot be checked: that is
 * its own answer (`never_wrote`), never a guess; so is an account not connected here.
 */

export type SubscriptionAnswer =
  | {
      status: 'checked';
      subscribed: boolean;
      clientId: number;
      username: string;
      name: string | null;
      followerCount: number | null;
      businessFollowsUser: boolean | null;
    }
  | { status: 'account_not_connected'; login: string }
  | { status: 'never_wrote'; userName: string; login: string };

/** `@Ann.Smith` → `ann.smith`: Instagram's usernames are case-insensitive. */
export const normalUsername = (name: string) => name.trim().replace(/^@/, '').toLowerCase();

/** The account to check against: `login`, else the running client's own, else the project's only one. */
async function accountLogin(
  db: PrismaClient,
  projectId: number,
  login: string | null,
  clientId: number | null,
): Promise<string> {
  if (login?.trim()) return normalUsername(login);
  if (clientId !== null) {
    const client = await db.client.findFirst({
      where: { id: clientId, projectId, clientType: SOCIAL_CLIENT_TYPE },
      select: { groupId: true },
    });
    if (client) return client.groupId;
  }
  const accounts = await db.channel.findMany({
    where: { projectId, clientType: SOCIAL_CLIENT_TYPE },
    select: { groupId: true },
    take: 2,
  });
  if (accounts.length === 1) return accounts[0].groupId;
  throw new DomainError(
    'invalid',
    accounts.length
      ? 'several Instagram accounts are connected: say which with login'
      : 'no Instagram account is connected to this project; connect one on the Channels tab',
  );
}

export async function checkSubscription(
  db: PrismaClient,
  projectId: number,
  input: { userName: string; login: string | null; clientId: number | null },
): Promise<SubscriptionAnswer> {
  const login = await accountLogin(db, projectId, input.login, input.clientId);
  const userName = normalUsername(input.userName);
  const channel = await db.channel.findFirst({
    where: { projectId, clientType: SOCIAL_CLIENT_TYPE, groupId: login },
    orderBy: { id: 'asc' },
  });
  if (!channel) return { status: 'account_not_connected', login };
  const state = await db.clientChannelState.findFirst({
    where: {
      key: USERNAME_KEY,
      value: userName,
      client: { projectId, clientType: SOCIAL_CLIENT_TYPE, groupId: login },
    },
    orderBy: { clientId: 'desc' },
    select: { client: { select: { id: true, platformId: true } } },
  });
  if (!userName || !state) return { status: 'never_wrote', userName, login };
  const api = instagramApi(socialCredentials(channel).token);
  const profile = await api.get<{
    name?: string;
    username?: string;
    follower_count?: number;
    is_user_follow_business?: boolean;
    is_business_follow_user?: boolean;
  }>(
    `${state.client.platformId}?fields=name,username,profile_pic,follower_count,is_user_follow_business,is_business_follow_user`,
  );
  if (!profile.ok)
    throw new Error(`the User Profile API did not answer for @${userName}: ${profile.description}`);
  const follows = profile.result.is_user_follow_business;
  if (typeof follows !== 'boolean')
    throw new Error(`the User Profile API gave no is_user_follow_business for @${userName}`);
  return {
    status: 'checked',
    subscribed: follows,
    clientId: state.client.id,
    username: normalUsername(profile.result.username ?? userName),
    name: profile.result.name ?? null,
    followerCount: profile.result.follower_count ?? null,
    businessFollowsUser: profile.result.is_business_follow_user ?? null,
  };
}
