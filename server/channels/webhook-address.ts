import { baseUrl } from '@/server/config/env';
import { blockedReason, isIpLiteral, stripBrackets } from '@/server/http';

/**
 * What messengers on the internet see of this server's address (BLOCKBOT_BASE_URL): its origin
 * and port, and whether it is https on a public host (the default http://localhost is not).
 * Each kind words what that means for its webhooks (its module's `webhookAddressProblem`).
 */
export type WebhookAddress = { origin: string; port: string; publicHttps: boolean } | { invalid: string };

export function webhookAddress(base = baseUrl()): WebhookAddress {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return { invalid: `BLOCKBOT_BASE_URL (${base}) is not an address.` };
  }
  const host = stripBrackets(url.hostname);
  const local =
    host === 'localhost' ||
    /\.(localhost|local|internal|lan)$/.test(host) ||
    (isIpLiteral(host) ? blockedReason(host) !== null : !host.includes('.'));
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { origin: url.origin, port, publicHttps: url.protocol === 'https:' && !local };
}
