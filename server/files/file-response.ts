/**
 * A file a client sent, answered so that it can never run as a page of ours: its declared type
 * with nosniff, a sandboxing CSP, shown in the page only when it is media (an image, audio or
 * video), else downloaded; kept by the browser for a day, never by shared caches; any site may
 * embed it (the chat widget shows images on its pages). With `range` (the request's Range
 * header), one byte range of it (206), which audio and video players ask for.
 */
export function fileResponse(
  bytes: Uint8Array,
  file: ServedFile & { etag?: string; range?: string | null },
): Response {
  const headers: Record<string, string> = {
    ...fileHeaders(file),
    ...(file.etag ? { etag: file.etag } : {}),
  };
  if (file.range === undefined) return whole(bytes, headers);
  headers['accept-ranges'] = 'bytes';
  if (!file.range) return whole(bytes, headers);
  const range = byteRange(file.range, bytes.byteLength);
  if (range === 'ignored') return whole(bytes, headers);
  if (range === 'unsatisfiable')
    return new Response(null, {
      status: 416,
      headers: { ...headers, 'content-range': `bytes */${bytes.byteLength}` },
    });
  const [start, end] = range;
  return new Response(bytes.subarray(start, end + 1) as Uint8Array<ArrayBuffer>, {
    status: 206,
    headers: {
      ...headers,
      'content-length': String(end - start + 1),
      'content-range': `bytes ${start}-${end}/${bytes.byteLength}`,
    },
  });
}

interface ServedFile {
  contentType: string;
  inline: boolean;
  name?: string;
}

/** The headers that keep a served file from running as a page of ours (see fileResponse). */
export function fileHeaders(file: ServedFile): Record<string, string> {
  const disposition = file.inline ? 'inline' : 'attachment';
  return {
    'content-type': file.contentType,
    'content-disposition': file.name
      ? `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`
      : disposition,
    'cache-control': 'private, max-age=86400',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'cross-origin',
  };
}

const whole = (bytes: Uint8Array, headers: Record<string, string>) =>
  new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: { ...headers, 'content-length': String(bytes.byteLength) },
  });

/**
 * One range of `bytes=a-b`, `bytes=a-` or `bytes=-n` (RFC 9110 §14.1.2); several ranges, or a
 * header of another form, are ignored (the whole file is sent, as the RFC allows).
 */
function byteRange(header: string, size: number): [number, number] | 'ignored' | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (!match[1] && !match[2])) return 'ignored';
  if (!match[1]) {
    const suffix = Number(match[2]);
    if (!suffix) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (start >= size || end < start) return 'unsatisfiable';
  return [start, end];
}
