import type { Section } from '@/lib/knowledge/sections';
import { tidyText } from '@/lib/knowledge/sections';
import { invalid } from '@/server/errors';

/**
 * A PDF's text by page (unpdf: PDF.js built to run in Node with no native modules), each page a
 * section headed "Page N" so an answer can cite where it read. PDFs carry no reliable headings;
 * scanned pages (images) have no text and give none.
 */
export async function parsePdf(bytes: Uint8Array): Promise<Section[]> {
  if (!startsWithPdfHeader(bytes))
    throw invalid(
      'The file is not a PDF (it does not start with "%PDF-"). Upload a PDF, or choose its real kind.',
      'file',
    );
  // Loaded on first use: PDF.js is several MB, and the routes importing this module serve much else.
  const { extractText, getDocumentProxy } = await import('unpdf');
  let pages: string[];
  try {
    // PDF.js takes the buffer over; a copy leaves the caller's bytes intact.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    pages = (await extractText(pdf, { mergePages: false })).text;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid(`The PDF could not be read (${reason}). Check that it opens in a PDF viewer.`, 'file');
  }
  return pages.flatMap((text, i) => {
    const tidy = tidyText(text);
    return tidy ? [{ headingPath: [`Page ${i + 1}`], text: tidy }] : [];
  });
}

function startsWithPdfHeader(bytes: Uint8Array): boolean {
  // The header may follow a few bytes of junk (the PDF specification allows 1,024).
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}
