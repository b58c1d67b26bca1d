import type { Button, Buttons } from '@/lib/schema';

/**
 * How a message's text and buttons are laid out on a messenger, whichever it is: long texts
 * split, buttons in the designer's rows, the hint variant's numbered options.
 */

/**
 * Rows by `line`, each ordered by `index_in_line` (then list order); a button without a line
 * gets a row of its own after the numbered rows, in list order.
 */
export function buttonRows(buttons: Button[]): Button[][] {
  const numbered = new Map<number, { button: Button; at: number }[]>();
  const loose: Button[][] = [];
  buttons.forEach((button, at) => {
    if (button.line === undefined) loose.push([button]);
    else numbered.set(button.line, [...(numbered.get(button.line) ?? []), { button, at }]);
  });
  const rows = [...numbered.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) =>
      row
        .sort((a, b) => (a.button.index_in_line ?? a.at) - (b.button.index_in_line ?? b.at) || a.at - b.at)
        .map((r) => r.button),
    );
  return [...rows, ...loose];
}

/** How a messenger measures a text against its limit: UTF-16 code units (`length`), or bytes. */
export type TextSize = (text: string) => number;

const codeUnits: TextSize = (text) => text.length;

/** A text's size in UTF-8 bytes (a lone surrogate counts as U+FFFD, as an encoder sends it). */
export const utf8Size: TextSize = (text) => {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
};

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest prefix of `text` (in code units) within `limit`: `size` grows with the prefix. */
function fitting(text: string, limit: number, size: TextSize): number {
  if (size === codeUnits) return Math.min(limit, text.length);
  let [low, high] = [0, text.length];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (size(text.slice(0, mid)) <= limit) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Where a text with no break before `at` is cut: the last boundary between user-perceived
 * characters (an emoji with its modifiers, a letter with its combining marks) at or before it;
 * failing one (a single such character past the limit), between two code points.
 */
function characterCut(text: string, at: number): number {
  let cut = 0;
  for (const { index } of graphemes.segment(text)) {
    if (index > at) break;
    cut = index;
  }
  if (cut > 0) return cut;
  const between = /[\uDC00-\uDFFF]/.test(text[at] ?? '') ? at - 1 : at;
  // A limit smaller than one code point: that code point alone.
  return between > 0 ? between : String.fromCodePoint(text.codePointAt(0) ?? 0).length;
}

/**
 * Splits at the last line break, else the last space, before the limit; a word longer than the
 * limit between two characters, never inside one. `size` is how the messenger counts the limit
 * (characters by default; `utf8Size` for a limit in bytes).
 */
export function splitText(text: string, limit: number, size: TextSize = codeUnits): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (size(rest) > limit) {
    const fit = fitting(rest, limit, size);
    // One character more: a break right after the fitting prefix ends a part that fits.
    const window = rest.slice(0, fit + 1);
    let cut = window.lastIndexOf('\n');
    if (cut <= 0) cut = window.search(/\s\S*$/);
    if (cut <= 0) cut = characterCut(rest, fit);
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** The hint variant (or buttons a messenger cannot show) as text: the hint, then `1. option` lines. */
export function numberedOptions(text: string, hint: string, buttons: Button[]): string {
  const options = buttonRows(buttons)
    .flat()
    .map((b, i) => `${i + 1}. ${b.text}`);
  return [text.trim(), [hint.trim(), ...options].filter(Boolean).join('\n')].filter(Boolean).join('\n\n');
}

/**
 * The option a client chose by typing its number (`2`, `2.`, ` 2) `) in answer to options shown
 * as numbered text (`numberedOptions`), in the order they were numbered; undefined for any
 * other text or a number past the options.
 */
export function numberedChoice(text: string, buttons: Button[]): string | undefined {
  const n = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(text)?.[1];
  if (!n) return undefined;
  return buttonRows(buttons.filter((b) => !b.url)).flat()[Number(n) - 1]?.text;
}

/**
 * A message's text and reply options as a messenger with option buttons shows them: the options
 * (the buttons without an address) in their rows' order; the text with them as numbered text
 * when `numbered` (past the messenger's limits, or the hint variant, whose hint comes first),
 * and each URL button as a `text: address` line.
 */
export function optionsAndText(
  text: string,
  buttons: Buttons | null,
  numbered: boolean,
): { text: string; options: Button[] } {
  const all = buttons ? (Array.isArray(buttons) ? buttons : buttons.buttons) : [];
  const options = buttonRows(all.filter((b) => !b.url)).flat();
  let shown = text.trim();
  if (numbered) shown = numberedOptions(shown, Array.isArray(buttons) ? '' : (buttons?.hint ?? ''), options);
  const links = all.filter((b) => b.url).map((b) => `${b.text}: ${b.url}`);
  return { text: [shown, ...links].filter(Boolean).join('\n'), options };
}
