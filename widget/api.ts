import type { WidgetMessage } from '../lib/widget/messages';
import type { WidgetPublicConfig } from '../lib/widget/settings';

/** The widget's endpoints (server/channels/widget/http.ts) for one channel. */

export class WidgetApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Dialog {
  recipient: string;
  token: string;
}

/** An id for one message the visitor sends (any page, http or https: no randomUUID there). */
export function messageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Sends, and sends again with the same id while the answer is lost (no connection, or the
 * server failed): the server stores and runs a message once per id, so nothing is lost or doubled.
 */
export async function sendWithRetry(
  send: (id: string) => Promise<unknown>,
  delays: readonly number[] = [1000, 2000, 4000, 8000],
): Promise<void> {
  const id = messageId();
  for (let attempt = 0; ; attempt++) {
    try {
      await send(id);
      return;
    } catch (error) {
      const retriable = error instanceof WidgetApiError && (error.status === 0 || error.status >= 500);
      if (!retriable || attempt >= delays.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    }
  }
}

export function widgetApi(base: string, key: string) {
  const root = `${base}/api/channels/widget/${encodeURIComponent(key)}`;
  async function call<T>(method: string, action: string, token?: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${root}/${action}`, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
      });
    } catch {
      throw new WidgetApiError(0, 'No connection; check your network and try again.');
    }
    const answer = await response.json().catch(() => ({}));
    if (!response.ok)
      throw new WidgetApiError(response.status, answer.message ?? 'Something went wrong; try again.');
    return answer as T;
  }
  return {
    streamUrl: `${root}/events`,
    config: () => call<WidgetPublicConfig>('GET', 'config'),
    open: () => call<Dialog>('POST', 'dialog'),
    messages: (token: string) => call<{ messages: WidgetMessage[] }>('GET', 'messages', token),
    send: (token: string, text: string, id: string) => call<unknown>('POST', 'messages', token, { text, id }),
    identify: (token: string, who: unknown) => call<unknown>('POST', 'identify', token, who),
  };
}
export type WidgetApi = ReturnType<typeof widgetApi>;
