import type { InFlowName, Value } from '@/lib/formula';
import { chatappHandlers } from '@/server/channels/chatapp/functions';
import { socialHandlers } from '@/server/channels/social/functions';
import { tgHandlers } from '@/server/channels/tg/functions';
import type { RunContext } from '@/server/engine/run-context';
import { botHandlers } from './handlers/bot';
import { crmHandlers } from './handlers/crm';
import { listHandlers } from './handlers/lists';
import { requestHandlers } from './handlers/requests';
import { variableHandlers } from './handlers/variables';

/** One call of an in-flow function, its arguments already read (`inFlowArgs`). */
export interface InFlowCall {
  /** The event as a function sees it: what it may read and change (run-context.ts). */
  run: RunContext;
  name: InFlowName;
  args: Value[];
  /** Adds a line to what the run's log says about this call (a reply that had to be changed). */
  note(message: string): void;
}

export type InFlowHandler = (call: InFlowCall) => Promise<Value> | Value;

/** The handlers of one area: a name that is not an in-flow function of the catalogue is a type error. */
export type AreaHandlers = Partial<Record<InFlowName, InFlowHandler>>;

/**
 * Every in-flow function of the catalogue (`lib/formula/catalogue.ts`) and its handler. A
 * catalogue function without a handler is a type error here; a handler without a catalogue
 * entry is one in its area's file (`satisfies AreaHandlers`) and in registry.test.ts.
 */
export const inFlowHandlers = {
  ...botHandlers,
  ...variableHandlers,
  ...requestHandlers,
  ...crmHandlers,
  ...listHandlers,
  ...tgHandlers,
  ...chatappHandlers,
  ...socialHandlers,
} satisfies Record<InFlowName, InFlowHandler>;

export const isInFlowName = (name: string): name is InFlowName => Object.hasOwn(inFlowHandlers, name);
