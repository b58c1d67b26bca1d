import { marked, type Token } from 'marked';
import { type Section, SectionBuilder } from './sections';

/**
 * Markdown: headings (# and underlined) open sections, so every chunk knows the headings it
 * sits under; everything else is kept as its source text (lists, tables and code read well as
 * they are, and links keep their address for the assistant to cite).
 */
export function parseMarkdown(source: string): Section[] {
  const builder = new SectionBuilder();
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'heading') builder.heading(token.depth, token.text);
      else if (token.type === 'space' || token.type === 'hr') continue;
      else if (token.type === 'html') builder.text(token.text.replace(/<[^>]*>/g, ' '));
      else builder.text(token.raw);
    }
  };
  walk(marked.lexer(source));
  return builder.done();
}
