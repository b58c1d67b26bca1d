/**
 * The dialog's live stream: server-sent events read through fetch (so the token travels in a
 * header, not in the address), resumed after a drop from the last message id it had
 * (`Last-Event-ID`), so no message is lost or repeated. Retries with a growing pause, at once
 * when the browser says it is back online.
 */
export interface LiveHandlers {
  event(name: string, data: string, id: string | null): void;
  /** The token is no longer known: the stream stops. */
  gone(): void;
}

/** The server sends a comment every 15 s: this long with nothing means the connection is dead. */
const SILENCE_MS = 40_000;

export function openLive(url: string, token: string, lastId: () => string, on: LiveHandlers): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let pause = 1000;
  let wake: (() => void) | null = null;
  const online = () => wake?.();
  addEventListener('online', online);

  async function readOnce() {
    controller = new AbortController();
    const response = await fetch(url, {
      headers: { Authorization: `Bearer ${token}`, 'Last-Event-ID': lastId(), Accept: 'text/event-stream' },
      signal: controller.signal,
      credentials: 'omit',
      cache: 'no-store',
    });
    if (response.status === 401) {
      stopped = true;
      on.gone();
      return;
    }
    if (!response.ok || !response.body) throw new Error(String(response.status));
    pause = 1000;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const watchdog = setTimeout(() => controller?.abort(), SILENCE_MS);
      const { done, value } = await reader.read().finally(() => clearTimeout(watchdog));
      if (done) return;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        frame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
  }

  function frame(text: string) {
    let name = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of text.split('\n')) {
      if (line.startsWith('event: ')) name = line.slice(7);
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) on.event(name, data.join('\n'), id);
  }

  (async () => {
    while (!stopped) {
      await readOnce().catch(() => {});
      if (stopped) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, pause);
      });
      pause = Math.min(pause * 2, 15000);
    }
  })();

  return () => {
    stopped = true;
    removeEventListener('online', online);
    controller?.abort();
  };
}
