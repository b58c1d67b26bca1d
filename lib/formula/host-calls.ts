import { LIMITS } from './limits';
import type { Pos } from './parser';
import type { Run } from './run-state';
import { FormulaError, type Value } from './values';

/**
 * An in-flow call whose result is not known yet. The statement stops, the runner awaits the
 * host, and evaluates the statement again with the result recorded (and the same random
 * numbers), so evaluation itself stays synchronous closures.
 */
export class NeedsHost {
  constructor(
    readonly name: string,
    readonly args: Value[],
  ) {}
}

/** Runs one statement that calls in-flow functions to its end, awaiting them as they come. */
export async function executeWithHost(run: Run, exec: (run: Run) => void, pos: Pos): Promise<void> {
  const results: Value[] = [];
  run.hostResults = results;
  run.randoms = [];
  try {
    for (;;) {
      run.hostIndex = 0;
      run.randomIndex = 0;
      try {
        exec(run);
        return;
      } catch (error) {
        if (!(error instanceof NeedsHost)) throw error;
        results.push(await callHost(run, error, pos));
      }
    }
  } finally {
    run.randoms = null;
  }
}

async function callHost(run: Run, needed: NeedsHost, pos: Pos): Promise<Value> {
  const host = run.options.host;
  const fail = (message: string) => new FormulaError(message, pos.line, pos.column, needed.name);
  if (!host) throw fail(`${needed.name}() is not available here`);
  if (++run.hostCalls > LIMITS.hostCalls)
    throw fail(`at most ${LIMITS.hostCalls} in-flow function calls per formula run`);
  const started = Date.now();
  const version = run.options.store.version;
  try {
    return await host.call(needed.name, needed.args);
  } catch (hostError) {
    throw fail(`${needed.name}(): ${(hostError as Error).message}`);
  } finally {
    // Waiting for the network does not count against the formula's own time.
    run.deadline += Date.now() - started;
    // The call may have changed variables (set_client_var): what the run remembers is read again.
    if (version === undefined || run.options.store.version !== version) run.values.fill(undefined);
  }
}
