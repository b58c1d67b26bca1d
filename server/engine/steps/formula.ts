import type { RuntimeError } from '@/lib/formula';
import type { Block } from '@/lib/schema';
import { getFormula } from '../formula-cache';
import type { RunContext } from '../run-context';

/**
 * Step 2: the block's formula, line by line; a failing line logs its error and the rest run.
 * Says whether an ask_operator() call failed (the plan, a limit): then no operator was asked.
 */
export async function formulaStep(run: RunContext, block: Block): Promise<{ handoffFailed: boolean }> {
  if (!block.formula.trim()) return { handoffFailed: false };
  const compiled = getFormula(block.formula);
  let errors: RuntimeError[] = [];
  const set = await run.variables.record(async () => {
    ({ errors } = await compiled.run(run.templates.formulaOptions()));
  });
  run.note('formula', { blockId: block.id, set });
  for (const e of [...compiled.diagnostics.filter((d) => d.severity === 'error'), ...errors]) {
    run.note('formula_error', { blockId: block.id, line: e.line, column: e.column, message: e.message });
  }
  return { handoffFailed: errors.some((e) => e.call === 'ask_operator') };
}
