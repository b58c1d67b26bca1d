import { isTruthy } from '@/lib/formula';
import { getExpression } from './formula-cache';
import type { RunContext } from './run-context';

/**
 * Whether a formula expression holds (an arrow's comparison, an assistant's launch condition);
 * a broken or failing one does not, logged with `where`.
 */
export async function expressionHolds(
  run: RunContext,
  expression: string,
  where: Record<string, unknown>,
): Promise<boolean> {
  if (!expression.trim()) return true;
  const compiled = getExpression(expression);
  const failed = (message: string) => {
    run.note('formula_error', { ...where, expression, message });
    return false;
  };
  if (compiled.diagnostics.some((d) => d.severity === 'error'))
    return failed(compiled.diagnostics[0].message);
  try {
    return isTruthy(await compiled.evaluate(run.templates.formulaOptions()));
  } catch (error) {
    return failed((error as Error).message);
  }
}
