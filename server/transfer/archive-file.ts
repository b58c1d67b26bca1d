import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { TransferError } from './transfer-error';

/**
 * The archive on disk: gzip'd JSON lines, written and read as streams, so a project with a long
 * history never sits in memory whole. Written beside the target and renamed when complete: a
 * failed export leaves no half archive behind.
 */

export async function writeArchive(file: string, records: AsyncIterable<unknown>): Promise<void> {
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  async function* lines() {
    for await (const record of records) yield `${JSON.stringify(record)}\n`;
  }
  try {
    await pipeline(Readable.from(lines()), zlib.createGzip(), fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/** The archive's lines, parsed as JSON, numbered from 1. */
export async function* readArchive(file: string): AsyncGenerator<{ line: number; value: unknown }> {
  const gunzip = zlib.createGunzip();
  const source = fs.createReadStream(file);
  // Errors of either stream end the iteration below; this promise's own rejection is that one.
  pipeline(source, gunzip).catch(() => {});
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  const parse = (text: string) => {
    line += 1;
    try {
      return { line, value: JSON.parse(text) as unknown };
    } catch {
      throw new TransferError(`${file}: line ${line} is not JSON: the archive is damaged`);
    }
  };
  try {
    for await (const chunk of gunzip) {
      const lines = (rest + decoder.write(chunk as Buffer)).split('\n');
      rest = lines.pop() ?? '';
      for (const text of lines) yield parse(text);
    }
  } catch (error) {
    if (error instanceof TransferError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw error;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'ERR_STREAM_PREMATURE_CLOSE')
      throw new TransferError(
        `${file} is not a whole Blockbot project archive (gzip: ${(error as Error).message}): it is another kind of file, or was cut off`,
      );
    throw error;
  } finally {
    // A reader that stops early (a refused record) closes the file.
    source.destroy();
  }
  rest += decoder.end();
  if (rest.trim()) yield parse(rest);
}
