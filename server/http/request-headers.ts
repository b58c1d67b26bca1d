import { SafeHttpError } from './errors';

/**
 * Headers only a cloud's metadata service asks for (GCP and IBM, AWS IMDSv2, Azure, Alibaba):
 * a designer's request has no use for them, and they are what turns a forged request into
 * stolen credentials.
 */
const METADATA_HEADERS = new Set([
  'metadata-flavor',
  'x-google-metadata-request',
  'x-aws-ec2-metadata-token',
  'x-aws-ec2-metadata-token-ttl-seconds',
  'metadata',
  'x-aliyun-ecs-metadata-token',
  'x-aliyun-ecs-metadata-token-ttl-seconds',
]);

/** Hop-by-hop and framing headers: the HTTP client sets them; set by hand they can split requests. */
const CONNECTION_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'expect',
]);

/**
 * The headers to send, or an error naming the first that may not be. A `Host` header is allowed
 * only when it names the URL's own host, and is then left to the client to set.
 */
export function checkRequestHeaders(headers: Record<string, string>, url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.trim().toLowerCase();
    if (METADATA_HEADERS.has(key)) {
      throw new SafeHttpError(
        'bad_header',
        `The header "${name}" cannot be sent: only cloud metadata services use it. Remove it.`,
      );
    }
    if (CONNECTION_HEADERS.has(key) || key.startsWith('proxy-')) {
      throw new SafeHttpError(
        'bad_header',
        `The header "${name}" cannot be set: the connection sets it itself. Remove it.`,
      );
    }
    if (key === 'host') {
      if (!sameHost(value, url)) {
        throw new SafeHttpError(
          'bad_header',
          `The header "${name}" (${value.slice(0, 200)}) differs from the URL's host ${url.host}: put the host in the URL and remove the header.`,
        );
      }
      continue;
    }
    out[name] = value;
  }
  return out;
}

function sameHost(value: string, url: URL): boolean {
  // A host and port only: `a@host`, `host/x` or `host#` would parse to the URL's host too.
  if (!/^[\w.:[\]-]+$/.test(value.trim())) return false;
  try {
    return new URL(`${url.protocol}//${value.trim()}`).host === url.host;
  } catch {
    return false;
  }
}
