/**
 * What every parser gives: the document's text as sections, each under its headings
 * (outermost first), in reading order. Chunking (chunk.ts) cuts these, and a chunk keeps its
 * section's heading path for citations.
 */
export interface Section {
  headingPath: string[];
  text: string;
}

/** Collapses runs of spaces inside lines and of blank lines, trims; paragraphs stay apart. */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Builds sections as headings and text arrive, dropping empty ones. */
export class SectionBuilder {
  private readonly sections: Section[] = [];
  private path: string[] = [];
  /** Each heading's level, beside `path`. */
  private levels: number[] = [];
  private parts: string[] = [];

  heading(level: number, title: string): void {
    this.flush();
    const text = tidyText(title).replace(/\n/g, ' ');
    if (!text) return;
    while (this.levels.length && this.levels[this.levels.length - 1] >= level) {
      this.levels.pop();
      this.path.pop();
    }
    this.levels.push(level);
    this.path.push(text);
  }

  text(text: string): void {
    this.parts.push(text);
  }

  done(): Section[] {
    this.flush();
    return this.sections;
  }

  private flush(): void {
    const text = tidyText(this.parts.join('\n\n'));
    this.parts = [];
    if (text) this.sections.push({ headingPath: [...this.path], text });
  }
}
