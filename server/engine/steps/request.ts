import type { Block } from '@/lib/schema';
import { runBlockRequest } from '../block-request';
import type { RunContext } from '../run-context';

/**
 * Step 3 (and an arrow's condition request): the HTTP request, with no transaction open; its
 * reply goes in `custom_answer` and its stored values in variables.
 */
export async function requestStep(
  run: RunContext,
  request: NonNullable<Block['request']>,
  where: Record<string, unknown>,
): Promise<void> {
  await run.templates.prepareExpressions(request.url, request.headers, request.params, request.storedValues);
  const outcome = await runBlockRequest(request, run.templates.templateContext(true), run.http);
  run.setCustomAnswer(outcome.body);
  for (const { variable, value } of outcome.stored) run.variables.trySet(variable, value);
  run.note('request', {
    ...where,
    request: outcome.request,
    status: outcome.status,
    reply: outcome.body.slice(0, 10_000),
    stored: outcome.stored,
    errors: outcome.errors,
  });
}
