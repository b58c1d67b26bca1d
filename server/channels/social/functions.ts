import type { AreaHandlers } from '@/server/engine/functions/registry';
import { asString } from '@/server/engine/functions/values';
import { checkSubscription } from './subscription';

/** The social network's functions (catalogue group "Bot and messages"). */
export const socialHandlers = {
  /**
   * check_social_subscription(user_name, login?): True or False from Instagram's User Profile
   * API, None for a person who never wrote to the account (Instagram cannot say); `login`
   * defaults to the running client's own account, else the project's only one. A query with no
   * side effect, so a simulator client asks the real account too.
   */
  async check_social_subscription({ run, args }) {
    const login =
      args[1] === undefined || args[1] === null || args[1] === '' ? null : asString(args[1], 'login');
    const answer = await checkSubscription(run.db, run.project.id, {
      userName: asString(args[0], 'user_name'),
      login,
      clientId: run.client.id,
    });
    if (answer.status === 'checked') return answer.subscribed;
    if (answer.status === 'never_wrote') return null;
    throw new Error(`no Instagram account @${answer.login} is connected to this project`);
  },
} satisfies AreaHandlers;
