import { type Section, tidyText } from './sections';

/** Plain text: one section with no headings; paragraphs are its blank lines. */
export function parseText(text: string): Section[] {
  const tidy = tidyText(text);
  return tidy ? [{ headingPath: [], text: tidy }] : [];
}
