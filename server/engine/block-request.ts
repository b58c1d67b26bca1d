import type { BlockRequest } from '@/lib/schema';
import { describeSecrets } from '@/lib/secrets/secret-refs';
import { NUL_REPLACED, replaceNul } from '@/lib/storable-reply';
import {
  extractStoredValues,
  parseStoredValues,
  renderJsonTemplate,
  renderTemplate,
  type TemplateContext,
} from '@/lib/template';
import type { SafeFetchInit, SafeResponse } from '@/server/http';

export type HttpClient = (url: string, init?: SafeFetchInit) => Promise<SafeResponse>;

export interface BlockRequestOutcome {
  ok: boolean;
  status?: number;
  /** The reply's text: what `#{custom_answer}` holds. */
  body: string;
  /** Values to store, from the stored-value paths of a JSON reply. */
  stored: { variable: string; value: string }[];
  errors: string[];
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
}

/** A JSON value as a variable holds it: strings as they are, anything else as JSON. */
export const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Builds and sends a block or condition request (platform-interface.md, "Block requests"). */
export async function runBlockRequest(
  request: BlockRequest,
  ctx: TemplateContext,
  http: HttpClient,
): Promise<BlockRequestOutcome> {
  const errors: string[] = [];
  const url = renderTemplate(request.url, ctx, { mode: 'url' }).text.trim();
  const headers: Record<string, string> = {};
  if (request.headers.trim()) {
    const rendered = renderJsonTemplate(request.headers, ctx, { forHeaders: true });
    if (
      !rendered.ok ||
      !rendered.value ||
      typeof rendered.value !== 'object' ||
      Array.isArray(rendered.value)
    ) {
      errors.push(
        `Request header is not a JSON object${rendered.ok ? '' : `: ${rendered.error.message} at ${rendered.error.line}:${rendered.error.column}`}`,
      );
    } else {
      for (const [name, value] of Object.entries(rendered.value)) headers[name] = asText(value);
    }
  }
  const method = request.type === 'GET' ? 'GET' : 'POST';
  let body: string | undefined;
  if (request.type !== 'GET' && request.params.trim()) {
    const rendered = renderJsonTemplate(request.params, ctx);
    if (!rendered.ok) {
      errors.push(
        `JSON parameters are not valid JSON: ${rendered.error.message} at ${rendered.error.line}:${rendered.error.column}`,
      );
    } else if (request.type === 'POST-json') {
      body = rendered.text;
      headers['content-type'] ??= 'application/json';
    } else {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries((rendered.value ?? {}) as Record<string, unknown>))
        form.append(name, asText(value));
      body = form.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
  }
  // Shown with `#{secret.NAME}` where a secret goes: the value is put in only as it is sent.
  const described = {
    method,
    url: describeSecrets(url),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, describeSecrets(v)])),
    body: body === undefined ? undefined : describeSecrets(body),
  };
  if (errors.length) return { ok: false, body: '', stored: [], errors, request: described };

  let response: SafeResponse;
  try {
    response = await http(url, { method, headers, body });
  } catch (error) {
    return { ok: false, body: '', stored: [], errors: [(error as Error).message], request: described };
  }
  const reply = replaceNul(response.body);
  if (reply.replaced) errors.push(NUL_REPLACED);
  const stored: BlockRequestOutcome['stored'] = [];
  if (request.storedValues.trim()) {
    let json: unknown;
    try {
      json = JSON.parse(reply.text);
    } catch {
      errors.push(
        'The reply is not JSON, so no stored values were saved (only JSON replies can be parsed into variables).',
      );
    }
    if (json !== undefined) {
      const parsed = parseStoredValues(request.storedValues);
      for (const e of parsed.errors) errors.push(`Stored values: ${e.message}`);
      const phrases = parsed.phrases.map((p) => ({
        ...p,
        path: p.path.map((key) => renderTemplate(key, ctx).text),
        variable: renderTemplate(p.variable, ctx).text,
      }));
      const extracted = extractStoredValues(phrases, json);
      for (const e of extracted.errors) errors.push(`Stored value ${e.variable}: ${e.message}`);
      for (const v of extracted.values) stored.push({ variable: v.variable, value: asText(v.value) });
    }
  }
  return {
    ok: response.status < 400,
    status: response.status,
    body: reply.text,
    stored,
    errors,
    request: described,
  };
}
