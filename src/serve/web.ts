// node:http ↔ fetch: the SDK's HTTP entry points speak web-standard Request/Response; serve keeps
// its own node:http server (header/body limits, guards) and converts at the edge.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request as a fetch Request (the body was already read and parsed: it goes to the SDK as
 * `parsedBody`). Its signal aborts when the client goes away before the response is complete, so
 * the call behind it is cancelled.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  const host = req.headers.host ?? 'localhost';
  return new Request(`http://${host}${req.url ?? '/'}`, { method: req.method, headers, signal: ac.signal });
}

/** Send a fetch Response on `res`, streaming its body (SSE included); stops reading when the client goes away. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    headers[k] = k === 'set-cookie' ? response.headers.getSetCookie() : v;
  });
  res.writeHead(response.status, headers);
  // An event stream's headers go out now: the client learns the stream is open before any event.
  if (response.body && response.headers.get('content-type')?.includes('text/event-stream')) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Back-pressure: wait for the socket to drain before reading more.
      if (!res.write(value)) await new Promise<void>((r) => res.once('drain', r).once('close', r));
      if (res.destroyed) break;
    }
  } catch {
    /* the stream was cancelled (client gone) or errored: nothing more to send */
  } finally {
    res.off('close', stop);
    if (!res.destroyed) res.end();
  }
}
