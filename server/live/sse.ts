/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
export const SSE_HEARTBEAT_MS = 15_000;

export type SseSend = (event: string, data: unknown, id?: string) => void;

/**
 * A text/event-stream Response. `start(send)` runs once; what it returns runs when the client
 * goes away (the request is aborted or the stream cancelled) or the stream fails.
 */
export function sseResponse(
  request: Request,
  start: (send: SseSend) => (() => void) | Promise<() => void>,
  init: { headers?: Record<string, string> } = {},
): Response {
  const encoder = new TextEncoder();
  let cleanup: (() => void) | null = null;
  let heartbeat: NodeJS.Timeout | undefined;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearInterval(heartbeat);
    request.signal.removeEventListener('abort', finish);
    cleanup?.();
  };

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        if (done) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          finish();
        }
      };
      const send: SseSend = (event, data, id) =>
        write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      request.signal.addEventListener('abort', finish);
      // Tells EventSource how long to wait before reconnecting after a drop.
      write('retry: 2000\n\n');
      heartbeat = setInterval(() => write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
      heartbeat.unref?.();
      try {
        const stop = await start(send);
        if (done) stop();
        else cleanup = stop;
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel: finish,
  });

  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // nginx buffers responses unless told not to.
      'X-Accel-Buffering': 'no',
      ...init.headers,
    },
  });
}

/** The id the browser's EventSource sends back after a reconnect (`Last-Event-ID`), or a query fallback. */
export function lastEventId(request: Request, queryName = 'after'): string | null {
  return request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get(queryName);
}
