import type { Block } from '@/lib/schema';
import { runBlockRequest } from '../block-request';
import type { RunState } from '../run-state';

/**
 * Step 3 (and an arrow's condition request): the HTTP request, with no transaction open; its
 * reply goes in `custom_answer` and its stored values in variables.
 */
export async function requestStep(
  run: RunState,
  request: NonNullable<Block['request']>,
  where: Record<string, unknown>,
): Promise<void> {
  await run.prepareExpressions(request.url, request.headers, request.params, request.storedValues);
  const outcome = await runBlockRequest(request, run.templateContext(true), run.http);
  run.setCustomAnswer(outcome.body);
  for (const { variable, value } of outcome.stored) run.setVariable(variable, value);
  run.note('request', {
    ...where,
    request: outcome.request,
    status: outcome.status,
    reply: outcome.body.slice(0, 10_000),
    stored: outcome.stored,
    errors: outcome.errors,
  });
}
