import type { JobDefinition } from './jobs';

/** Every job kind the worker handles. Features add their definitions here. */
export const jobDefinitions: readonly JobDefinition<object>[] = [];
