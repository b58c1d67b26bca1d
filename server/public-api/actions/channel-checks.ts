import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { hasConnectedChannel } from '@/server/channels/channel-list';
import type { ChannelApiCheck, ChannelModule } from '@/server/channels/channel-module';
import { CHANNEL_MODULES } from '@/server/channels/modules';
import { channelFor } from '@/server/channels/registry';
import { DomainError } from '@/server/errors';
import { type ApiAction, type ApiContext, defineAction } from '../action';
import { ApiError } from '../api-error';

/** A check asks the connected messenger through its channel adapter. */
async function askChannel(ctx: ApiContext, clientType: number, check: ChannelApiCheck, input: unknown) {
  if (!(await hasConnectedChannel(ctx.db, ctx.projectId, clientType))) {
    throw new ApiError(
      400,
      'channel_not_connected',
      `No ${check.label} is connected to this project; connect one first (see connected_channels).`,
    );
  }
  try {
    return await channelFor(clientType).call(ctx.projectId, check.fn, input as Record<string, unknown>, {
      db: ctx.db,
    });
  } catch (error) {
    // What the connected channel cannot do at all (the Cloud API looks no number up) is said as it is.
    if (error instanceof DomainError) throw new ApiError(400, 'not_supported', error.message);
    throw new ApiError(
      502,
      'channel_error',
      `The ${check.label} did not answer: ${(error as Error).message}`,
    );
  }
}

/** An action of a module's check. */
function checkAction(clientType: number, check: ChannelApiCheck): ApiAction {
  return defineAction({
    name: check.name,
    methods: ['GET', 'POST'],
    summary: check.summary,
    description: check.description,
    input: check.input,
    example: check.example,
    responseExample: check.responseExample,
    async handle(ctx, input) {
      return check.answer(await askChannel(ctx, clientType, check, input), input);
    },
  });
}

const checks = (CHANNEL_MODULES as readonly ChannelModule[]).flatMap((module) =>
  (module.apiChecks ?? []).map((check) => ({ check, action: checkAction(CLIENT_TYPES[module.kind], check) })),
);

/** Each channel module's API checks (its `apiChecks`), in the modules' order, as actions. */
export const channelChecks: readonly ApiAction[] = checks.map((c) => c.action);

/** Their old names (`check_whatsapp`), each running its check's action. */
export const channelCheckAliases = checks.flatMap(({ check, action }) =>
  check.alias ? [{ name: check.alias, target: action }] : [],
);
