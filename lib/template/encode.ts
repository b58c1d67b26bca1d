/** Replaces lone surrogates (which make encodeURIComponent throw) with U+FFFD. */
export function toWellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** CR, LF and NUL would let a value start a new header line (header injection) or make the request fail. */
export function stripLineBreaks(value: string): string {
  return value.replace(/[\r\n\0]/g, '');
}

/** A value in a URL: one query value or path segment, so `&`, `=`, `/`, `?`, `#` are escaped. */
export function encodeUrlValue(value: string): string {
  return encodeURIComponent(toWellFormed(value));
}

/**
 * A value that begins the URL (`#{base_url}/orders`, `#{attachment_url}`) is a URL itself: only
 * unsafe characters are escaped, and the escapes it has (`%20`) are kept, not escaped again.
 */
export function encodeUrlPrefix(value: string): string {
  return toWellFormed(value)
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part, i) => (i % 2 ? part : encodeURI(part)))
    .join('');
}

/** The template's own URL text is kept; spaces are encoded for the author (platform-interface, block requests). */
export function encodeUrlLiteral(text: string): string {
  return text.replaceAll(' ', '%20');
}

/** A value inside a JSON string literal: escaped so quotes and newlines cannot end the string. */
export function encodeJsonStringContent(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * A value written without quotes in JSON (`{"n": #{count}}`): inserted as is when it is exactly one
 * JSON value (number, true, null, an object from to_json, ...), otherwise as a JSON string. So a bare
 * value can never add keys or break the document: `1, "admin": true` becomes a string.
 */
export function encodeJsonBareValue(value: string): string {
  const trimmed = value.trim();
  if (trimmed !== '') {
    try {
      JSON.parse(trimmed);
      return trimmed;
    } catch {
      // not one JSON value: fall through to a string
    }
  }
  return JSON.stringify(value);
}

/** Tracks whether the end of a JSON text is inside a string literal, across literal pieces. */
export interface JsonStringState {
  inString: boolean;
  escaped: boolean;
}

export function advanceJsonState(text: string, state: JsonStringState): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (!state.inString) {
      if (ch === '"') state.inString = true;
    } else if (state.escaped) {
      state.escaped = false;
    } else if (ch === '\\') {
      state.escaped = true;
    } else if (ch === '"') {
      state.inString = false;
    }
  }
}

/** Cuts at `max` without leaving half a surrogate pair or half a `%XX` escape. */
export function cutText(text: string, max: number, url: boolean): string {
  let cut = text.slice(0, Math.max(0, max));
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  if (url) cut = cut.replace(/%[0-9A-Fa-f]?$/, '');
  return cut;
}
