/**
 * A request's body as bytes (a channel's webhook, a CSV upload), or null when it is over `cap` bytes (reading stops there,
 * so an oversized body is refused without being held in memory).
 */
export async function cappedBytes(req: Request, cap: number): Promise<Uint8Array | null> {
  if (Number(req.headers.get('content-length') ?? 0) > cap) return null;
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as text, or null when it is over `cap` bytes. */
export async function cappedText(req: Request, cap: number): Promise<string | null> {
  const bytes = await cappedBytes(req, cap);
  return bytes && new TextDecoder().decode(bytes);
}

/**
 * `cappedText` for a node:http request the production server hands over without Next.js: the
 * rest of a body over the cap is left unread (the answer then drains it, server/node-http).
 */
export async function cappedNodeText(
  body: AsyncIterable<Uint8Array>,
  declaredLength: string | undefined,
  cap: number,
): Promise<string | null> {
  if (Number(declaredLength ?? 0) > cap) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > cap) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
