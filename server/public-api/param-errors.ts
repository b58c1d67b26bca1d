import { z } from 'zod';
import { declaredParams, fieldPath, kindOf } from '@/lib/api-params';
import { ApiError } from './api-error';

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  record: 'an object',
  date: 'a date',
};
const expectedName = (expected: string) => EXPECTED[expected] ?? expected;

const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  url: 'a URL',
  regex: 'text of the expected form',
};

const bound = (origin: string, n: number | bigint) =>
  origin === 'string' ? `${n} characters` : origin === 'array' ? `${n} items` : String(n);

/**
 * What an input of each issue's kind must be, in the API's words, for the issues whose schema
 * sets no message of its own (a schema's `error` wins over this). Passed to every parse.
 */
export const apiIssueMessage: z.core.$ZodErrorMap = (issue) => {
  const got = `not ${kindOf(issue.input)}`;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${expectedName(issue.expected)}, ${got}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, ${got === 'not a string' ? `not ${JSON.stringify(issue.input)}` : got}`;
    case 'invalid_format':
      return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'too_small':
      return `must be at least ${bound(issue.origin, issue.minimum)}`;
    case 'too_big':
      return `must be at most ${bound(issue.origin, issue.maximum)}`;
    case 'invalid_union': {
      // The shapes the input could take, as each branch's own type check says.
      const shapes = issue.errors.flatMap((branch) =>
        branch.flatMap((i) => (i.code === 'invalid_type' && i.path.length === 0 ? [i.expected] : [])),
      );
      return shapes.length === issue.errors.length
        ? `must be ${[...new Set(shapes.map(expectedName))].join(' or ')}, ${got}`
        : 'matches none of the accepted shapes: see the API reference';
    }
    default:
      return undefined;
  }
};

/**
 * The options of every parse of the API's parameters: its messages, the input kept in issues.
 * `async: false` is zod's own setting for a synchronous parse, given here so that zod's copy
 * of these options (`{ ...options, async: false }`) sets a property the object already has:
 * without it that copy took V8's slow path on each parse, about 2 µs of a 2.2 µs parse.
 */
export const API_PARSE: z.core.ParseContextInternal<z.core.$ZodIssue> = {
  async: false,
  error: apiIssueMessage,
  reportInput: true,
};

type Issue = z.core.$ZodIssue;

/**
 * An input of alternative shapes (load_clients: one client or a list; buttons: a list or
 * {hint, buttons}) that fits none is reported on the branch the request comes closest to: the
 * one whose parameters it sent, even empty (top level), then the one it got further into, then
 * the one with fewer complaints. When every branch fails at the union itself, its own message
 * says which shapes it takes.
 */
function closestBranch(
  issue: z.core.$ZodIssueInvalidUnion,
  branchParams: string[][] | null,
  sent: (name: string) => boolean,
): Issue[] {
  const ranked = issue.errors
    .map((branch, i) => ({
      branch,
      sent: branchParams?.[i].filter(sent).length ?? 0,
      depth: Math.max(...branch.map((inner) => inner.path.length)),
    }))
    .sort((a, b) => b.sent - a.sent || b.depth - a.depth || a.branch.length - b.branch.length);
  const best = ranked[0];
  if (!best || (best.sent === 0 && best.depth === 0)) return [issue];
  return best.branch.flatMap((inner) => {
    const nested = { ...inner, path: [...issue.path, ...inner.path] } as Issue;
    return nested.code === 'invalid_union' && nested.errors.length
      ? closestBranch(nested, null, sent)
      : [nested];
  });
}

/** Issues listed in one answer: a list of 100,000 bad items is summed up, not echoed. */
const MAX_LISTED_ISSUES = 10;

/**
 * The 400 for an input that fails its action's schema: each problem as `field: what it must
 * be`, the field as the caller wrote it; a parameter not sent at all is "required".
 */
export function invalidParams(
  schema: z.ZodType,
  error: z.ZodError,
  raw: Record<string, unknown>,
  emptied: Set<string>,
): ApiError {
  // Nested too: a client of load_clients's list without its client_type.
  const isMissing = (issue: Issue) =>
    (issue.code === 'invalid_type' || issue.code === 'invalid_union') &&
    issue.path.length > 0 &&
    issue.input === undefined;
  const tooMany = (issue: Issue) => issue.code === 'too_big' && issue.origin === 'array';
  const sent = (name: string) => raw[name] !== undefined || emptied.has(name);
  const rootBranches = schema instanceof z.ZodUnion ? schema.options.map(declaredParams) : null;
  const issues = error.issues.flatMap((issue) =>
    issue.code === 'invalid_union' && issue.errors.length
      ? closestBranch(issue, issue.path.length === 0 ? rootBranches : null, sent)
      : [issue],
  );
  const lines = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const field = fieldPath(issue.path) || 'request';
    if (!isMissing(issue)) return `${field}: ${issue.message}`;
    return emptied.has(field) ? `${field} is required, and was sent empty` : `${field} is required`;
  });
  const more = issues.length - lines.length;
  if (more > 0) lines.push(`and ${more} more`);
  const code = issues.some(isMissing)
    ? 'missing_parameter'
    : issues.some(tooMany)
      ? 'too_many_items'
      : 'invalid_parameter';
  return new ApiError(400, code, `${lines.join('; ')}.`);
}
