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

/** Whether a client runs the draft: the simulator's draft conversations; everyone else the published version. */
export const runsDraft = (client: { clientType: number; groupId: string }): boolean =>
  client.clientType === CLIENT_TYPES.simulator && client.groupId !== PUBLISHED_GROUP;
