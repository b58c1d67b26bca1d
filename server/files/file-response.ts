/**
 * A file a client sent, answered so that it can never run as a page of ours: its declared type
 * with nosniff, a sandboxing CSP, shown in the page only when it is media (an image, audio or
 * video), else downloaded; kept by the browser for a day, never by shared caches; any site may
 * embed it (the chat widget shows images on its pages).
 */
export function fileResponse(
  bytes: Uint8Array,
  file: { contentType: string; inline: boolean; name?: string; etag?: string },
): Response {
  const disposition = file.inline ? 'inline' : 'attachment';
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': file.contentType,
      'content-length': String(bytes.byteLength),
      'content-disposition': file.name
        ? `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`
        : disposition,
      'cache-control': 'private, max-age=86400',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cross-origin-resource-policy': 'cross-origin',
      ...(file.etag ? { etag: file.etag } : {}),
    },
  });
}
