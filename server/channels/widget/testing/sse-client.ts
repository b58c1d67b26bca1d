import type { WidgetMessage } from '@/lib/widget/messages';

/**
 * The widget's live stream as widget.js reads it (fetch with the token in a header), for tests
 * and the benchmark: frames collected as they come, `onFrame` called for each.
 */
export function openTestStream(
  url: string,
  headers: Record<string, string>,
  onFrame: (frame: { event: string; id: string | null; data: unknown }) => void = () => {},
) {
  const abort = new AbortController();
  const frames: { event: string; id: string | null; data: unknown }[] = [];
  let wake = () => {};
  let failure: Error | null = null;
  const opened = fetch(url, { headers, signal: abort.signal });
  const done = (async () => {
    const response = await opened;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
        const data = field('data');
        if (data === undefined) continue;
        const frame = { event: field('event') ?? 'message', id: field('id') ?? null, data: JSON.parse(data) };
        frames.push(frame);
        onFrame(frame);
      }
      wake();
    }
  })().catch((error: Error) => {
    if (error.name !== 'AbortError') failure = error;
    wake();
  });
  return {
    response: opened,
    frames,
    messages: () => frames.filter((f) => f.event === 'message').map((f) => f.data as WidgetMessage),
    async until(check: () => boolean, what: string) {
      const deadline = Date.now() + 15_000;
      while (!check()) {
        if (failure) throw failure;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
    async close() {
      abort.abort();
      await done;
    },
  };
}
