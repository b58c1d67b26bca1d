import type { Section } from './sections';

export interface Chunk {
  /** The headings the chunk sits under, outermost first (its citation). */
  headingPath: string[];
  text: string;
}

export interface ChunkOptions {
  /** Most characters in a chunk (about four per token in English). */
  maxChars: number;
  /**
   * Characters of a chunk's end repeated at the start of the next one in the same section, so
   * a sentence cut between two chunks is found whole in one of them. Default: a tenth of
   * `maxChars`, at most 200.
   */
  overlapChars?: number;
}

interface Piece {
  text: string;
  /** What joins it to the piece before: a new paragraph, or the same paragraph's next sentence. */
  joiner: '\n\n' | ' ';
}

/**
 * Cuts sections into chunks of at most `maxChars`: whole paragraphs packed together while they
 * fit, a longer paragraph by sentences, a longer sentence at a word. Chunks never cross a
 * heading, so each keeps one heading path.
 */
export function chunkSections(sections: Section[], options: ChunkOptions): Chunk[] {
  const { maxChars } = options;
  const overlap = Math.min(options.overlapChars ?? Math.min(200, Math.floor(maxChars / 10)), maxChars / 2);
  return sections.flatMap((section) =>
    pack(piecesOf(section.text, maxChars), maxChars, overlap).map((text) => ({
      headingPath: section.headingPath,
      text,
    })),
  );
}

function piecesOf(text: string, maxChars: number): Piece[] {
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .flatMap((paragraph) => {
      if (paragraph.length <= maxChars) return [{ text: paragraph, joiner: '\n\n' as const }];
      const sentences = paragraph.split(/(?<=[.!?…。])\s+/).flatMap((s) => splitAtWords(s, maxChars));
      return sentences.map((s, i) => ({ text: s, joiner: i === 0 ? ('\n\n' as const) : (' ' as const) }));
    });
}

/** A text longer than `maxChars` in parts of at most that, cut at the last space that fits. */
function splitAtWords(text: string, maxChars: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const space = rest.lastIndexOf(' ', maxChars);
    const cut = space > maxChars / 2 ? space : maxChars;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

function pack(pieces: Piece[], maxChars: number, overlap: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (!current) current = piece.text;
    else if (current.length + piece.joiner.length + piece.text.length <= maxChars)
      current += piece.joiner + piece.text;
    else {
      chunks.push(current);
      const tail = tailOf(current, overlap);
      const next = tail ? `${tail} ${piece.text}` : piece.text;
      current = next.length <= maxChars ? next : piece.text;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/** The last `n` characters of a text, from a word's start. */
function tailOf(text: string, n: number): string {
  if (n <= 0 || text.length <= n) return n <= 0 ? '' : text;
  const tail = text.slice(-n);
  const space = tail.indexOf(' ');
  return (space >= 0 ? tail.slice(space + 1) : tail).trim();
}
