import { CLIENT_TYPES } from '@/lib/channels/descriptors';

/**
 * Which bot the builder's simulator talks to (docs/versions.md): the draft being edited, or the
 * published version clients get. Each has its own test conversation: a simulator client of its
 * own group, so switching keeps both.
 */
export type SimulatorEdition = 'draft' | 'published';

export const SIMULATOR_EDITIONS: readonly SimulatorEdition[] = ['draft', 'published'];

const PUBLISHED_GROUP = 'simulator:published';

export const simulatorGroupId = (edition: SimulatorEdition): string =>
  edition === 'published' ? PUBLISHED_GROUP : 'simulator';

/**
 * A conversation test's client (docs/conversation-tests.md): a simulator client of a group of its
 * own per bot it runs, the draft (`test:draft`) or a version (`test:v3`), made for one run and
 * deleted after it. It never counts in analytics nor reaches the webhook.
 */
export const testRunGroupId = (version: number | 'draft', channel?: string): string =>
  `${version === 'draft' ? 'test:draft' : `test:v${version}`}${channel ? `:${channel}` : ''}`;

/** The channel kind a test's client runs as (`test:draft:tg`): its messenger's name in the bot. */
export const testRunChannel = (client: { clientType: number; groupId: string }): string | null =>
  isTestRunClient(client) ? (/^test:[^:]+:(.+)$/.exec(client.groupId)?.[1] ?? null) : null;

/** The bot a client runs: the draft, the published version, or (a test's client) one version. */
export type ClientBot = { kind: 'draft' } | { kind: 'published' } | { kind: 'version'; number: number };

export function clientBot(client: { clientType: number; groupId: string }): ClientBot {
  if (client.clientType !== CLIENT_TYPES.simulator || client.groupId === PUBLISHED_GROUP)
    return { kind: 'published' };
  const version = /^test:v(\d+)(?::|$)/.exec(client.groupId)?.[1];
  return version ? { kind: 'version', number: Number(version) } : { kind: 'draft' };
}

/** Whether a client runs the draft: the simulator's draft conversations; everyone else the published version. */
export const runsDraft = (client: { clientType: number; groupId: string }): boolean =>
  clientBot(client).kind === 'draft';

/** Whether a client is a conversation test's, made for one run. */
export const isTestRunClient = (client: { clientType: number; groupId: string }): boolean =>
  client.clientType === CLIENT_TYPES.simulator && client.groupId.startsWith('test:');
