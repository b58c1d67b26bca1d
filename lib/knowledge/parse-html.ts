import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { type Section, SectionBuilder, tidyText } from './sections';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** Elements whose content is not the page's text: code, styling, navigation and page chrome. */
const SKIPPED = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'button',
  'select',
  'svg',
  'iframe',
  'object',
  'canvas',
]);

/** Elements that end a paragraph: their text is not run into the next one's. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'tr',
  'table',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'br',
  'hr',
  'address',
]);

const HEADING = /^h([1-6])$/;

export interface ParsedPage {
  /** The page's <title> (or its first heading), for a document added by address. */
  title: string;
  sections: Section[];
}

/**
 * HTML by a full HTML5 parser (parse5: what browsers do with broken markup, no regexes):
 * headings open sections, the text of block elements becomes paragraphs, and scripts,
 * styles, navigation, headers, footers and forms are left out.
 */
export function parseHtml(html: string): ParsedPage {
  const document = parse(html);
  const builder = new SectionBuilder();
  let paragraph = '';
  let firstHeading = '';
  const endParagraph = () => {
    if (paragraph.trim()) builder.text(paragraph);
    paragraph = '';
  };
  const walk = (node: Node) => {
    if (node.nodeName === '#text' && 'value' in node) {
      paragraph += node.value;
      return;
    }
    if (!('childNodes' in node)) return;
    const tag = 'tagName' in node ? node.tagName : '';
    if (SKIPPED.has(tag)) return;
    const level = HEADING.exec(tag);
    if (level) {
      endParagraph();
      const title = textOf(node as Element);
      firstHeading ||= title;
      builder.heading(Number(level[1]), title);
      return;
    }
    const block = BLOCKS.has(tag);
    if (block) endParagraph();
    for (const child of node.childNodes) walk(child);
    if (block) endParagraph();
  };
  walk(document);
  endParagraph();
  return { title: titleOf(document) || firstHeading, sections: builder.done() };
}

function textOf(node: Node): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  if (!('childNodes' in node)) return '';
  return tidyText(node.childNodes.map(textOf).join(' ')).replace(/\n/g, ' ');
}

function titleOf(node: Node): string {
  if ('tagName' in node && node.tagName === 'title') return textOf(node);
  if (!('childNodes' in node)) return '';
  for (const child of node.childNodes) {
    const title = titleOf(child);
    if (title) return title;
  }
  return '';
}
