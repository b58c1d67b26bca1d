import {
  defangSecretRefs,
  describeSecrets,
  fillSecrets,
  maskSecrets,
  refersToSecrets,
} from '@/lib/secrets/secret-refs';
import type { HttpClient } from '@/server/engine/block-request';
import { type SafeFetchInit, SafeHttpError } from '@/server/http';

export class MissingSecretError extends Error {}

/**
 * An HTTP client that puts project secrets into a request at the last moment (docs/secrets.md):
 * `#{secret.NAME}` in the URL (URL-encoded), a header (as is) or the body (JSON-escaped in a
 * JSON body, URL-encoded in a form), loaded only for a request that refers to one. The reply,
 * and any error, come back with every secret value masked, so a receiver that echoes a header
 * puts nothing of it in `custom_answer`, a variable, the history or the log.
 */
export function withSecrets(http: HttpClient, load: () => Promise<ReadonlyMap<string, string>>): HttpClient {
  return async (url, init = {}) => {
    const body = typeof init.body === 'string' ? init.body : undefined;
    const headerValues = Object.values(init.headers ?? {});
    if (![url, body ?? '', ...headerValues].some(refersToSecrets)) return http(url, init);
    const values = await load();
    const missing = new Set<string>();
    const fill = (text: string, encode: (v: string) => string, encoded = false) => {
      const filled = fillSecrets(text, values, encode, encoded);
      for (const name of filled.missing) missing.add(name);
      return filled.text;
    };
    const contentType =
      Object.entries(init.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    const filled: SafeFetchInit = {
      ...init,
      headers: Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k, fill(v, (s) => s)])),
      ...(body !== undefined && {
        body: fill(
          body,
          contentType.includes('json')
            ? (s) => JSON.stringify(s).slice(1, -1)
            : contentType.includes('x-www-form-urlencoded')
              ? encodeURIComponent
              : (s) => s,
          contentType.includes('x-www-form-urlencoded'),
        ),
      }),
    };
    const target = fill(url, encodeURIComponent, true);
    if (missing.size)
      throw new MissingSecretError(
        `${[...missing].map((n) => `secret ${n}`).join(', ')} ${missing.size === 1 ? 'is' : 'are'} not set: add ${missing.size === 1 ? 'it' : 'them'} in Settings, Secrets (the request was not sent)`,
      );
    const secrets = [...values.values()];
    try {
      const response = await http(target, filled);
      // Masked, and defanged: a reply is data, it never refers to a secret for a later request.
      const masked = defangSecretRefs(maskSecrets(response.body, secrets));
      const headers = Object.fromEntries(
        Object.entries(response.headers).map(([k, v]) => [k, maskSecrets(v, secrets)]),
      );
      return {
        ...response,
        headers,
        body: masked,
        bytes: new TextEncoder().encode(masked),
        url: describeSecrets(url),
      };
    } catch (error) {
      if (error instanceof SafeHttpError)
        throw new SafeHttpError(error.code, maskSecrets(error.message, secrets));
      if (error instanceof Error) error.message = maskSecrets(error.message, secrets);
      throw error;
    }
  };
}
