import { Marked, type Tokens } from 'marked';

/** GitHub's heading anchors, so `doc.md#bot-lint` works in the app as on GitHub. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * Where a link in the doc at `from` (a path under docs/ without `.md`, e.g. `channels/tg`)
 * goes in the app: another doc opens at /docs/<path>; anchors and absolute URLs stay.
 */
export function docHref(href: string, from: string): string {
  const match = /^([^:#?]+)\.md(#.*)?$/.exec(href);
  if (!match) return href;
  const parts = from.split('/').slice(0, -1);
  for (const part of match[1].split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return `/docs/${parts.join('/')}${match[2] ?? ''}`;
}

/** One of the repository's docs (trusted Markdown, GitHub flavour) as HTML for the in-app page. */
export function renderDoc(markdown: string, from: string): string {
  const slugs = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    walkTokens(token) {
      if (token.type === 'link') token.href = docHref(token.href, from);
    },
    renderer: {
      heading({ tokens, depth, text }: Tokens.Heading) {
        // Repeated headings get -1, -2… as on GitHub.
        const base = headingSlug(text);
        const seen = slugs.get(base) ?? 0;
        slugs.set(base, seen + 1);
        const id = seen ? `${base}-${seen}` : base;
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}
