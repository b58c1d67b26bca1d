import type { FormulaHost } from '@/lib/formula';
import type { RunContext } from '@/server/engine/run-context';
import { inFlowHandlers, isInFlowName } from './registry';
import { inFlowArgs, valueToJson } from './values';

/** Calls per event at most, so a formula loop cannot flood other clients or third-party APIs. */
const MAX_CALLS_PER_EVENT = 100;

/**
 * The in-flow functions with I/O (platform-interface.md, "In-flow functions"), for one event.
 * The formula language checks names, arity and plan; this reads the arguments, limits the
 * calls and hands each to its handler (`registry.ts`).
 */
export function createFormulaHost(run: RunContext): FormulaHost {
  let calls = 0;
  return {
    async call(name, written) {
      if (++calls > MAX_CALLS_PER_EVENT)
        throw new Error(`at most ${MAX_CALLS_PER_EVENT} in-flow function calls per message`);
      if (!isInFlowName(name)) throw new Error(`${name} is not an in-flow function`);
      const args = inFlowArgs(name, written);
      const notes: string[] = [];
      const result = await inFlowHandlers[name]({
        run,
        name,
        args,
        note: (message) => notes.push(message),
      });
      run.note('function', {
        name,
        args: args.map((a) => valueToJson(a)),
        result: valueToJson(result),
        ...(notes.length ? { notes } : {}),
      });
      return result;
    },
  };
}
