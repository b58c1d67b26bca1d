import type { Block } from '@/lib/schema';
import { getFormula } from '../formula-cache';
import type { RunState } from '../run-state';

/** Step 2: the block's formula, line by line; a failing line logs its error and the rest run. */
export async function formulaStep(run: RunState, block: Block): Promise<void> {
  if (!block.formula.trim()) return;
  const compiled = getFormula(block.formula);
  let errors: { line: number; column: number; message: string }[] = [];
  const set = await run.scope.record(async () => {
    ({ errors } = await compiled.run(run.formulaOptions()));
  });
  run.note('formula', { blockId: block.id, set });
  for (const e of [...compiled.diagnostics.filter((d) => d.severity === 'error'), ...errors]) {
    run.note('formula_error', { blockId: block.id, line: e.line, column: e.column, message: e.message });
  }
}
