import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

export function canonicalKeyUrl(url: string): string;
export function createRequestListener(
  handleWithNext: (req: IncomingMessage, res: ServerResponse) => unknown,
): RequestListener;
