import { describe, expect, it } from 'vitest';
import { chunkSections } from './chunk';
import { parseHtml } from './parse-html';
import { parseMarkdown } from './parse-markdown';
import { parseText } from './parse-text';
import { bytesVector, fuseRanks, normalise, vectorBytes } from './vectors';

const words = (n: number, word = 'word') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('parsing', () => {
  it('plain text is one section, paragraphs kept and spaces tidied', () => {
    expect(parseText('  First   line.\r\n\r\n\r\n\tSecond para.  ')).toEqual([
      { headingPath: [], text: 'First line.\n\nSecond para.' },
    ]);
    expect(parseText(' \n ')).toEqual([]);
  });

  it('Markdown keeps its headings as each section path', () => {
    const sections = parseMarkdown(
      '# Shop\nIntro.\n\n## Returns\nWithin 30 days.\n\n- receipt\n- box\n\n### Refunds\nTo the card.\n\n## Shipping\nFree over 50.\n\nSetext\n======\nLast.',
    );
    expect(sections).toEqual([
      { headingPath: ['Shop'], text: 'Intro.' },
      { headingPath: ['Shop', 'Returns'], text: 'Within 30 days.\n\n- receipt\n- box' },
      { headingPath: ['Shop', 'Returns', 'Refunds'], text: 'To the card.' },
      { headingPath: ['Shop', 'Shipping'], text: 'Free over 50.' },
      { headingPath: ['Setext'], text: 'Last.' },
    ]);
  });

  it('HTML keeps text and headings, drops scripts, styles, navigation and page chrome', () => {
    const page = parseHtml(`<!doctype html><html><head><title>Help  centre</title><style>p{color:red}</style>
      <script>var secret = 1;</script></head><body><nav><a href="/">Home</a> Menu</nav>
      <header>Site banner</header><main><h1>Returns</h1><p>Send it back within <b>30 days</b>.</p>
      <div>Keep the <i>receipt</i>.<br>And the box.</div><h2>Refunds <small>(cards)</small></h2>
      <ul><li>Card: 5 days</li><li>Cash: at once</li></ul><script>track()</script></main>
      <footer>© Shop</footer><p>Unclosed <p>tags`);
    expect(page.title).toBe('Help centre');
    expect(page.sections).toEqual([
      {
        headingPath: ['Returns'],
        text: 'Send it back within 30 days.\n\nKeep the receipt.\n\nAnd the box.',
      },
      {
        headingPath: ['Returns', 'Refunds (cards)'],
        text: 'Card: 5 days\n\nCash: at once\n\nUnclosed\n\ntags',
      },
    ]);
    const all = JSON.stringify(page);
    for (const hidden of ['secret', 'color', 'Menu', 'banner', '©', 'track'])
      expect(all).not.toContain(hidden);
  });

  it('an HTML page without a title is named by its first heading', () => {
    expect(parseHtml('<h2>FAQ</h2><p>Answers.</p>').title).toBe('FAQ');
  });
});

describe('chunking', () => {
  it('packs whole paragraphs up to the size and never crosses a heading', () => {
    const chunks = chunkSections(
      [
        { headingPath: ['A'], text: `${'a'.repeat(40)}\n\n${'b'.repeat(40)}\n\n${'c'.repeat(40)}` },
        { headingPath: ['A', 'B'], text: 'short' },
      ],
      { maxChars: 90, overlapChars: 0 },
    );
    expect(chunks).toEqual([
      { headingPath: ['A'], text: `${'a'.repeat(40)}\n\n${'b'.repeat(40)}` },
      { headingPath: ['A'], text: 'c'.repeat(40) },
      { headingPath: ['A', 'B'], text: 'short' },
    ]);
  });

  it('cuts a long paragraph by sentences, a long sentence at a word, every chunk within the size', () => {
    const text = `${words(30, 'one')}. ${words(30, 'two')}. ${words(400, 'three')}`;
    const chunks = chunkSections([{ headingPath: [], text }], { maxChars: 300 });
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(300);
    // Words are never cut in two.
    for (const c of chunks) for (const w of c.text.split(/\s+/)) expect(w).toMatch(/^(one|two|three)\d+\.?$/);
    // Nothing is lost.
    const seen = new Set(chunks.flatMap((c) => c.text.split(/\s+/)));
    for (const w of text.split(/\s+/)) expect(seen).toContain(w);
  });

  it('repeats the end of a chunk at the start of the next (overlap) within a section', () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} ${words(12, `p${i}w`)}.`);
    const chunks = chunkSections([{ headingPath: [], text: paragraphs.join('\n\n') }], {
      maxChars: 200,
      overlapChars: 40,
    });
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 1; i < chunks.length; i++) {
      const lastWord = chunks[i - 1].text.split(/\s+/).at(-1) ?? '';
      expect(chunks[i].text.slice(0, 60)).toContain(lastWord);
      expect(chunks[i].text.length).toBeLessThanOrEqual(200);
    }
  });
});

describe('vectors and ranking', () => {
  it('normalises and round-trips float32 bytes', () => {
    const v = normalise([3, 4]);
    expect([...v].map((x) => Number(x.toFixed(3)))).toEqual([0.6, 0.8]);
    expect([...bytesVector(vectorBytes(v))]).toEqual([...v]);
    expect(() => normalise([0, 0])).toThrow(/all zeros/);
    expect(() => normalise([1, Number.NaN])).toThrow(/finite/);
  });

  it('fuses ranks: an id high in both lists wins', () => {
    const scores = fuseRanks([
      [1, 2, 3],
      [3, 2, 4],
    ]);
    const order = [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    expect(order.slice(0, 2).sort()).toEqual([2, 3]);
    expect(order.at(-1)).toBe(4);
  });
});
