/** Reading a text/event-stream route in tests (server/live/sse.ts writes them). */

/** One server-sent event: its name, id and JSON data. */
export interface SseFrame<D = unknown> {
  event: string;
  id?: string;
  data: D;
}

/**
 * An open event stream over real HTTP: its frames as they come, and a wait for one; `onFrame`
 * hears each as it arrives (a benchmark's timing, where a wait's polling would add to it).
 */
export async function openSseStream<D = unknown>(
  url: string,
  headers: Record<string, string> = {},
  onFrame?: (frame: SseFrame<D>) => void,
) {
  const aborted = new AbortController();
  const response = await fetch(url, { headers, signal: aborted.signal });
  const frames: SseFrame<D>[] = [];
  let buffer = '';
  const reading = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          const field = (name: string) =>
            block
              .split('\n')
              .find((l) => l.startsWith(`${name}: `))
              ?.slice(name.length + 2);
          const event = field('event');
          if (!event) continue;
          const frame = { event, id: field('id'), data: JSON.parse(field('data') ?? '{}') };
          frames.push(frame);
          onFrame?.(frame);
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    status: response.status,
    frames,
    async until(check: (frames: SseFrame<D>[]) => boolean, what: string) {
      const deadline = Date.now() + 20_000;
      while (!check(frames)) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}: ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      aborted.abort();
      await reading;
    },
  };
}
