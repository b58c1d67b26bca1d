import type { InFlowName, Value } from '@/lib/formula';
import type { RunState } from '@/server/engine/run-state';
import { botHandlers } from './handlers/bot';
import { crmHandlers } from './handlers/crm';
import { listHandlers } from './handlers/lists';
import { requestHandlers } from './handlers/requests';
import { variableHandlers } from './handlers/variables';

/** One call of an in-flow function, its arguments already read (`inFlowArgs`). */
export interface InFlowCall {
  run: RunState;
  name: InFlowName;
  args: Value[];
  /** Adds a line to what the run's log says about this call (a reply that had to be changed). */
  note(message: string): void;
}

export type InFlowHandler = (call: InFlowCall) => Promise<Value> | Value;

/** The handlers of one area: a name that is not an in-flow function of the catalogue is a type error. */
export type AreaHandlers = Partial<Record<InFlowName, InFlowHandler>>;

/** The engine's own areas; the channels' (tg_*, chatapp_*, …) are installed with them at start. */
const CORE_AREAS: readonly AreaHandlers[] = [
  botHandlers,
  variableHandlers,
  requestHandlers,
  crmHandlers,
  listHandlers,
];

// One table per process, shared by every copy of this module (Next.js bundles it into several
// server chunks; the runtime installs into one of them).
const globalForFunctions = globalThis as unknown as {
  blockbotInFlowHandlers?: Record<InFlowName, InFlowHandler>;
};

/**
 * Every in-flow function of the catalogue (`lib/formula/catalogue.ts`) and its handler: the
 * engine's areas, and the channel modules' (`functions`), installed by the runtime at start
 * (`installFunctionAreas`, from installChannels in server/channels/registry.ts). A handler without a
 * catalogue entry is a type error in its area's file (`satisfies AreaHandlers`); registry.test.ts
 * checks that every catalogue function has one once the channels are installed.
 */
export const inFlowHandlers: Record<InFlowName, InFlowHandler> =
  globalForFunctions.blockbotInFlowHandlers ?? Object.assign({}, ...CORE_AREAS);
globalForFunctions.blockbotInFlowHandlers = inFlowHandlers;

/** The channel modules' function areas, handed to the engine at start. */
export function installFunctionAreas(areas: readonly AreaHandlers[]): void {
  for (const area of areas) Object.assign(inFlowHandlers, area);
}

export const isInFlowName = (name: string): name is InFlowName => Object.hasOwn(inFlowHandlers, name);
