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

/** Splits at the last line break, else the last space, before the limit; never inside a character. */
export function splitText(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    let cut = window.lastIndexOf('\n');
    if (cut <= 0) cut = window.search(/\s\S*$/);
    if (cut <= 0) cut = /[\uD800-\uDBFF]/.test(rest[limit - 1]) ? limit - 1 : limit;
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
