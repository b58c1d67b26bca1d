import { describe, expect, it } from 'vitest';
import { docHref, headingSlug, renderDoc } from './render-doc';

describe('docs rendered in the app', () => {
  it('gives headings the anchors GitHub gives them', () => {
    expect(headingSlug('Bot lint')).toBe('bot-lint');
    expect(headingSlug('Import and export')).toBe('import-and-export');
    expect(headingSlug("What's `if`, really?")).toBe('whats-if-really');
  });

  it('opens links to other docs in the app, relative to the doc they are in', () => {
    expect(docHref('bot-schema.md', 'builder')).toBe('/docs/bot-schema');
    expect(docHref('formula.md#if', 'builder')).toBe('/docs/formula#if');
    expect(docHref('../builder.md', 'channels/tg')).toBe('/docs/builder');
    expect(docHref('channels/tg.md', 'builder')).toBe('/docs/channels/tg');
    expect(docHref('#bot-lint', 'builder')).toBe('#bot-lint');
    expect(docHref('https://example.com/a.md', 'builder')).toBe('https://example.com/a.md');
  });

  it('renders tables, anchors and rewritten links, repeated headings numbered', () => {
    const html = renderDoc(
      '# The builder\n\nSee [the format](bot-schema.md) and [lint](#bot-lint).\n\n## Bot lint\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Bot lint\n',
      'builder',
    );
    expect(html).toContain('<h1 id="the-builder">The builder</h1>');
    expect(html).toContain('<a href="/docs/bot-schema">the format</a>');
    expect(html).toContain('<a href="#bot-lint">lint</a>');
    expect(html).toContain('<h2 id="bot-lint">Bot lint</h2>');
    expect(html).toContain('<h2 id="bot-lint-1">Bot lint</h2>');
    expect(html).toContain('<td>1</td>');
  });
});
