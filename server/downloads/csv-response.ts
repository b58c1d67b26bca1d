import Papa from 'papaparse';

/**
 * A cell a spreadsheet would run as a formula; a phone number written with its `+` (`+7 900
 * 123-45-67`) is not one and is left as it is.
 */
const FORMULA_CELL = /^(?!\+[\d\s().-]*$)[=+\-@\t\r]/;

/** Rows turned into text per chunk sent. */
const ROWS_PER_CHUNK = 500;

/**
 * A CSV download streamed as its rows are read (a 100,000-row export is never held in memory).
 * UTF-8 with a byte order mark, so spreadsheet programs read non-Latin text right; cells that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@` first; not a phone number) get a leading `'`.
 */
export function csvResponse(fileName: string, rows: AsyncIterable<readonly string[]>): Response {
  const iterator = rows[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk: string[][] = [];
      while (chunk.length < ROWS_PER_CHUNK) {
        const next = await iterator.next();
        if (next.done) break;
        chunk.push([...next.value]);
      }
      if (chunk.length) {
        const text = Papa.unparse(chunk, { escapeFormulae: FORMULA_CELL, newline: '\r\n' });
        controller.enqueue(encoder.encode(`${started ? '\r\n' : '\uFEFF'}${text}`));
        started = true;
      }
      if (chunk.length < ROWS_PER_CHUNK) controller.close();
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const asciiName = fileName.replace(/[^\w.-]+/g, '_');
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
