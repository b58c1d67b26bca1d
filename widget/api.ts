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
    send: (token: string, text: string) => call<unknown>('POST', 'messages', token, { text }),
    identify: (token: string, who: unknown) => call<unknown>('POST', 'identify', token, who),
  };
}
export type WidgetApi = ReturnType<typeof widgetApi>;
