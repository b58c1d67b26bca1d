import type { BlockRequest } from '@/lib/schema';
import { findPlaceholders } from '@/lib/template';

export interface SampleValue {
  name: string;
  value: string;
}

/** The variables a request substitutes (`#{name}`), in order of appearance, each once. */
export function requestVariables(request: BlockRequest): string[] {
  const texts = [
    request.url,
    request.headers,
    request.type === 'GET' ? '' : request.params,
    request.storedValues,
  ];
  const names = texts.flatMap((text) =>
    findPlaceholders(text).flatMap((p) => (p.kind === 'variable' && p.name ? [p.name] : [])),
  );
  return [...new Set(names)];
}

/**
 * The sample rows the form shows: the ones the designer has, then an empty row for each variable
 * the request uses that has none yet (project constants and secrets come from the project's
 * settings: a secret is sent as set, never sampled).
 */
export function sampleRows(request: BlockRequest, rows: readonly SampleValue[]): SampleValue[] {
  const named = new Set(rows.map((r) => r.name.trim()));
  const missing = requestVariables(request).filter(
    (name) => !named.has(name) && !name.startsWith('project.') && !name.startsWith('secret.'),
  );
  return [...rows, ...missing.map((name) => ({ name, value: '' }))];
}

/** The rows sent with a test: named and filled (an empty value would hide a project constant). */
export function filledSamples(rows: readonly SampleValue[]): SampleValue[] {
  return rows
    .filter((r) => r.name.trim() && r.value !== '')
    .map((r) => ({ name: r.name.trim(), value: r.value }));
}
