import type http from 'node:http';

/**
 * What happens to a request a fake service received, before it is processed: it is processed
 * (`process`), the proxy in front of the service answers 502 Bad Gateway without processing it
 * (`bad_gateway`), or the connection is closed with no answer and nothing done (`drop`, a
 * keep-alive connection the service closed). A test that holds the request (awaits before it
 * decides) makes a slow answer.
 */
export type Interception = 'process' | 'bad_gateway' | 'drop';

/** Carries out a fate other than `process` on the response; true when the request is done with. */
export function interrupted(
  fate: Interception,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): boolean {
  if (fate === 'drop') {
    req.socket.destroy();
    return true;
  }
  if (fate === 'bad_gateway') {
    // A proxy's page, not the service's JSON, as nginx in front of it answers.
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>');
    return true;
  }
  return false;
}
