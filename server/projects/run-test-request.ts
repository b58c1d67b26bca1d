import { z } from 'zod';
import { compileExpression, type RunOptions, toDisplayString } from '@/lib/formula';
import { blockRequestSchema } from '@/lib/schema';
import { withSecretSentinels } from '@/lib/secrets/secret-refs';
import {
  extractStoredValues,
  renderTemplate,
  suggestStoredValuePaths,
  type TemplateContext,
} from '@/lib/template';
import type { PrismaClient } from '@/server/db/client-type';
import { asText, type HttpClient, runBlockRequest } from '@/server/engine/block-request';
import { notFound } from '@/server/errors';
import { SafeHttpError, type SafeHttpErrorCode, type SafeResponse, safeFetch } from '@/server/http';
import { withSecrets } from '@/server/secrets/secret-http';
import { loadSecrets } from '@/server/secrets/secret-service';

/** The builder's "Test request": a block request and the sample values of the variables it uses. */
export const testRequestInput = z.object({
  request: blockRequestSchema,
  samples: z
    .array(
      z.object({
        name: z.string().trim().min(1, 'a sample needs a variable name').max(500),
        value: z.string().max(100_000),
      }),
    )
    .max(200, 'at most 200 sample values')
    .default([]),
});
export type TestRequestInput = z.input<typeof testRequestInput>;

/** How much of a reply's body the form shows; paths are listed from the whole body. */
export const SHOWN_BODY_CHARS = 20_000;
const MAX_PATHS = 200;

export interface TestRequestResult {
  /** What was sent, after substitution. */
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: {
    status: number;
    headers: Record<string, string>;
    body: string;
    /** The body's full length in characters; more than `body` holds when it was cut. */
    bodyLength: number;
    durationMs: number;
  } | null;
  /** Why nothing came back: the request could not be built, or the safe client refused or failed. */
  error: { code: SafeHttpErrorCode | 'invalid'; message: string } | null;
  /** Stored-value paths of a JSON reply (`a|0|b`) with the start of their value, to pick from. */
  paths: { path: string; value: string }[] | null;
  /** What the stored values would save from this reply. */
  stored: { variable: string; value: string }[];
  /** Stored values that did not match the reply, and other notes of the engine's run. */
  problems: string[];
}

/**
 * Sample values first, then the project's constants (`project.x`, or `x` when no sample names
 * it), as the engine looks up deal, client, then project.
 */
function sampleLookup(samples: { name: string; value: string }[], constants: Map<string, string>) {
  const values = new Map(samples.map((s) => [s.name, s.value]));
  return (name: string) =>
    values.get(name) ?? (name.startsWith('project.') ? constants.get(name.slice(8)) : constants.get(name));
}

/** `#{2+2}` and the like, evaluated before rendering (the formula interpreter is async). */
async function evaluateExpressions(texts: string[], lookup: TemplateContext['lookup'], options: RunOptions) {
  const values = new Map<string, string>();
  for (const text of texts) {
    if (!text.includes('#{')) continue;
    const wanted = new Set<string>();
    const collect = (expression: string) => {
      wanted.add(expression);
      return '';
    };
    renderTemplate(text, { lookup, evaluate: collect });
    for (const expression of wanted) {
      if (values.has(expression)) continue;
      const value = await compileExpression(expression)
        .evaluate(options)
        .then(toDisplayString, () => '');
      values.set(expression, value);
    }
  }
  return values;
}

/**
 * Builds and sends a block request exactly as the engine does (runBlockRequest, through the safe
 * client), with the designer's sample values, and reports what went and what came back.
 */
export async function runTestRequest(
  db: PrismaClient,
  projectId: number,
  input: TestRequestInput,
  http: HttpClient = (url, init) => safeFetch(url, init),
): Promise<TestRequestResult> {
  const { request, samples } = testRequestInput.parse(input);
  const project = await db.project.findUnique({
    where: { id: projectId },
    select: { plan: true, timeZone: true, constants: { select: { name: true, value: true } } },
  });
  if (!project) throw notFound(`Project ${projectId} does not exist.`);
  const lookup = sampleLookup(samples, new Map(project.constants.map((c) => [c.name, c.value])));
  const expressions = await evaluateExpressions(
    [request.url, request.headers, request.params, request.storedValues],
    lookup,
    { store: { get: lookup, set: () => {} }, plan: project.plan, timeZone: project.timeZone },
  );

  // The engine's outcome keeps the reply's text only: the form also shows its headers and the
  // safe client's reason for a refusal, so the client is wrapped to see them.
  const seen: { response?: SafeResponse; failure?: unknown } = {};
  const secretHttp = withSecrets(http, () => loadSecrets(db, projectId));
  const recording: HttpClient = async (url, init) => {
    try {
      seen.response = await secretHttp(url, init);
      return seen.response;
    } catch (error) {
      seen.failure = error;
      throw error;
    }
  };
  const outcome = await runBlockRequest(
    request,
    { lookup: withSecretSentinels(lookup), evaluate: (expression) => expressions.get(expression) ?? '' },
    recording,
  );
  const sent = seen.response;
  return {
    request: outcome.request,
    response: sent
      ? {
          status: sent.status,
          headers: sent.headers,
          body: sent.body.slice(0, SHOWN_BODY_CHARS),
          bodyLength: sent.body.length,
          durationMs: sent.durationMs,
        }
      : null,
    error: sent ? null : describeFailure(seen.failure, outcome.errors),
    paths: sent ? jsonPaths(sent.body) : null,
    stored: outcome.stored,
    problems: sent ? outcome.errors : [],
  };
}

function describeFailure(failure: unknown, errors: string[]): TestRequestResult['error'] {
  if (failure instanceof SafeHttpError) return { code: failure.code, message: failure.message };
  if (failure) return { code: 'network', message: (failure as Error).message ?? String(failure) };
  return { code: 'invalid', message: errors.join('\n') || 'The request could not be built.' };
}

const PATH_VALUE_CHARS = 80;

function jsonPaths(body: string): TestRequestResult['paths'] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const paths = suggestStoredValuePaths(json, MAX_PATHS);
  const { values } = extractStoredValues(
    paths.map((path) => ({ path: path.split('|'), variable: path })),
    json,
  );
  return values.map(({ variable, value }) => ({
    path: variable,
    value: asText(value).slice(0, PATH_VALUE_CHARS),
  }));
}
