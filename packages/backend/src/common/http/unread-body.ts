import type { IncomingMessage } from 'node:http';

/** How much of a refused request's body is read and thrown away so that the answer reaches the client. */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;
/** How long a refused request's body may take to arrive before the answer is sent anyway. */
export const DISCARD_TIMEOUT_MS = 10_000;

/**
 * Reads and discards what is left of a request's body, up to `maxBytes` or `timeoutMs`.
 *
 * Why: an answer that closes the connection (a 413 does, and any body-parsing error) while the client
 * is still sending makes the kernel reset the connection, and a client that writes its whole body before
 * reading (Python's urllib, many SDKs) then sees a reset instead of the answer. Once the body is read,
 * the close is orderly. A body declared larger than the bound is not waited for.
 */
export function discardUnreadBody(
  request: IncomingMessage,
  maxBytes = DISCARD_LIMIT_BYTES,
  timeoutMs = DISCARD_TIMEOUT_MS,
): Promise<void> {
  if (request.complete || request.readableEnded || request.destroyed) return Promise.resolve();
  if (Number(request.headers['content-length']) > maxBytes) return Promise.resolve();
  return new Promise((resolve) => {
    let received = 0;
    const finish = () => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', finish);
      request.off('error', finish);
      request.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    request.on('data', onData);
    request.once('end', finish);
    request.once('error', finish);
    request.once('close', finish);
    request.resume();
  });
}
