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
export async function sendWithRetry<T>(
  send: (id: string) => Promise<T>,
  delays: readonly number[] = [1000, 2000, 4000, 8000],
): Promise<T> {
  const id = messageId();
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(id);
    } catch (error) {
      const retriable = error instanceof WidgetApiError && (error.status === 0 || error.status >= 500);
      if (!retriable || attempt >= delays.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    }
  }
}

/** What the server answers an upload: the stored file, at the address its message shows. */
export interface SentFile {
  url: string;
  name: string;
  size: number;
  type: string;
}

export function widgetApi(base: string, key: string) {
  const root = `${base}/api/channels/widget/${encodeURIComponent(key)}`;
  /** A JSON body is sent as JSON; a file (a Blob) as its bytes, its type and name in `headers`. */
  async function call<T>(
    method: string,
    action: string,
    token?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const json = body !== undefined && !(body instanceof Blob);
    let response: Response;
    try {
      response = await fetch(`${root}/${action}`, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(json ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
        body: json ? JSON.stringify(body) : (body as Blob | undefined),
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
    /** The newest page of the history, or the page before a message; `more` when earlier ones remain. */
    messages: (token: string, before?: string) =>
      call<{ messages: WidgetMessage[]; more: boolean }>(
        'GET',
        before ? `messages?before=${encodeURIComponent(before)}` : 'messages',
        token,
      ),
    send: (token: string, text: string, id: string) => call<unknown>('POST', 'messages', token, { text, id }),
    /** The file as the body; its name and the caption percent-encoded (a header is Latin-1). */
    upload: (token: string, file: File, id: string, caption: string) =>
      call<{ file: SentFile }>('POST', 'files', token, file, {
        'Content-Type': file.type || 'application/octet-stream',
        'X-File-Name': encodeURIComponent(file.name || 'file'),
        'X-Message-Id': id,
        ...(caption ? { 'X-Caption': encodeURIComponent(caption) } : {}),
      }),
    identify: (token: string, who: unknown) => call<unknown>('POST', 'identify', token, who),
  };
}
export type WidgetApi = ReturnType<typeof widgetApi>;
