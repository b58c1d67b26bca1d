import { z } from 'zod';

/**
 * An opaque keyset-paging cursor: the sort key and id of the last row of a page, and the sort
 * it belongs to (a cursor of another sort would skip or repeat rows, so it is refused).
 */
const cursorSchema = z.object({
  sort: z.string(),
  key: z.union([z.string(), z.number(), z.null()]),
  id: z.number().int(),
});
export type KeysetCursor = z.infer<typeof cursorSchema>;

export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The cursor, or null when the text is not one this module made for `sort`. */
export function decodeCursor(text: string, sort: string): KeysetCursor | null {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success && parsed.data.sort === sort ? parsed.data : null;
  } catch {
    return null;
  }
}
