/**
 * `#{secret.NAME}` in requests (docs/secrets.md). Only references a designer wrote count: data
 * is defanged where it is read (`defangSecretRefs`). A template leaves a reference as a sentinel
 * made of characters no encoding changes (`~bbsecret~NAME~`: `~` is left alone by URL and JSON
 * encoding), so the value is put in only at the HTTP boundary, encoded for where it lands, and
 * never passes through a formula, a variable or the log. A formula's requests_* writes the
 * reference itself (`"Bearer #{secret.NAME}"`): formulas do not fill `#{}`, so it arrives as
 * written. Pure.
 */

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const REFERENCE = new RegExp(`#\\{\\s*secret\\.(${NAME})\\s*\\}`, 'g');
const SENTINEL = new RegExp(`~bbsecret~(${NAME})~`, 'g');
/** Both forms as URLSearchParams and encodeURIComponent write them (form bodies, query params). */
const ENCODED = new RegExp(
  `(?:%23%7B(?:\\+|%20)*secret\\.(${NAME})(?:\\+|%20)*%7D|%7Ebbsecret%7E(${NAME})%7E)`,
  'gi',
);

/** What a template puts where `#{secret.NAME}` is written, in a request. */
export const secretSentinel = (name: string) => `~bbsecret~${name}~`;

/** The secret names a text refers to, in either form. */
export function secretNamesIn(text: string): string[] {
  const names = new Set<string>();
  for (const re of [REFERENCE, SENTINEL]) for (const m of text.matchAll(re)) names.add(m[1]);
  for (const m of text.matchAll(ENCODED)) names.add(m[1] ?? m[2]);
  return [...names];
}

/** Whether a text refers to any secret. */
export const refersToSecrets = (text: string) => secretNamesIn(text).length > 0;

/**
 * The text with each reference replaced by `encode(value)`; a name with no value is reported
 * in `missing` and left as it was.
 */
export function fillSecrets(
  text: string,
  values: ReadonlyMap<string, string>,
  encode: (value: string) => string,
  /** A URL or a form body: references percent-encoded there are references too. */
  encoded = false,
): { text: string; missing: string[] } {
  const missing = new Set<string>();
  const put = (match: string, name: string) => {
    const value = values.get(name);
    if (value === undefined) {
      missing.add(name);
      return match;
    }
    return encode(value);
  };
  const filled = text.replace(REFERENCE, put).replace(SENTINEL, put);
  return {
    text: encoded
      ? filled.replace(ENCODED, (match, a: string | undefined, b: string | undefined) =>
          put(match, (a ?? b)!),
        )
      : filled,
    missing: [...missing],
  };
}

/** References in a URL a parser would cut at `#` (a fragment): as sentinels, they stay in place. */
export const urlSafeSecretRefs = (url: string) =>
  url.replace(REFERENCE, (_m, name: string) => secretSentinel(name));

/** A request as the log and the simulator show it: every reference as `#{secret.NAME}`. */
export const describeSecrets = (text: string) =>
  text
    .replace(SENTINEL, (_m, name: string) => `#{secret.${name}}`)
    .replace(ENCODED, (_m, a, b) => `#{secret.${a ?? b}}`);

/** Shorter values are not masked: too likely to occur by chance (a secret should be longer anyway). */
export const MIN_MASKED_LENGTH = 4;
export const MASK = '••••';

/**
 * The text with every secret value masked, also as URL-encoded and JSON-escaped: what a reply,
 * an error or a log entry would otherwise repeat of a secret (a receiver that echoes headers).
 */
export function maskSecrets(text: string, values: Iterable<string>): string {
  let out = text;
  for (const value of values) {
    if (value.length < MIN_MASKED_LENGTH) continue;
    const escaped = JSON.stringify(value).slice(1, -1);
    // JSON inside JSON (a receiver echoing the body it got) escapes it twice.
    const forms = new Set([value, encodeURIComponent(value), escaped, JSON.stringify(escaped).slice(1, -1)]);
    for (const form of forms) out = out.split(form).join(MASK);
  }
  return out;
}

/**
 * Data (a variable, a client's message, a reply) made harmless: a reference or sentinel it spells
 * gets a zero-width space, so only what a designer wrote refers to a secret. Otherwise a client
 * typing `#{secret.CRM_TOKEN}` into a value a request sends would have the secret put there.
 */
export function defangSecretRefs(text: string): string {
  if (!text.includes('secret')) return text;
  return text
    .replace(/#(\{\s*secret\.)/g, '#\u200b$1')
    .replace(/~bbsecret~/g, '~bb\u200bsecret~')
    .replace(/%23%7B((?:\+|%20)*)secret\./gi, '%23%7B$1%E2%80%8Bsecret.');
}

/** A request template's lookup: `secret.NAME` gives its sentinel, anything else as `lookup` says. */
export const withSecretSentinels =
  (lookup: (name: string) => string | undefined) =>
  (name: string): string | undefined =>
    name.startsWith('secret.') && new RegExp(`^secret\\.${NAME}$`).test(name)
      ? secretSentinel(name.slice('secret.'.length))
      : lookup(name);
