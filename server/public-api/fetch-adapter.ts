import { answerApiRequest } from './handle-request';

/** The public API for a Fetch API Request, as the Next.js route handler receives it. */
export async function handlePublicApiRequest(
  req: Request,
  apiKey: string,
  action: string,
): Promise<Response> {
  const reply = await answerApiRequest(
    {
      method: req.method,
      query: new URL(req.url).search,
      contentType: req.headers.get('content-type'),
      contentLength: req.headers.get('content-length'),
      // Node's ReadableStream is async-iterable; TypeScript's DOM library does not declare it.
      body: req.body as AsyncIterable<Uint8Array> | null,
      origin: req.headers.get('origin'),
      requestedHeaders: req.headers.get('access-control-request-headers'),
      // Next.js gives no peer address; the server in front of it (scripts/request-listener.mjs, or
      // Next.js itself when the header is absent) appends it to X-Forwarded-For.
      addressChain: req.headers.get('x-forwarded-for')?.split(',') ?? [],
    },
    apiKey,
    action,
  );
  // A 204 (a preflight's answer) may not have a body, not even an empty one.
  return new Response(reply.body || null, { status: reply.status, headers: reply.headers });
}
