// A body over AIDE_BODY_LIMIT_BYTES is answered 413 with the envelope, and the answer reaches clients that
// write their whole body before reading (Python's urllib, many SDKs), not only those that read early.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { once } from 'node:events';
import { USER, createTestContext, type TestContext } from '../helpers/test-app.js';

interface RawExchange {
  /** The error writing the request met (EPIPE, ECONNRESET), if any. */
  writeError: Error | undefined;
  /** The error reading the answer met, if any. */
  readError: Error | undefined;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
}

/**
 * An HTTP/1.1 exchange over a plain socket: writes the request head and the whole body without reading
 * anything (the socket is paused), waits until all of it is handed to the kernel, then reads the answer.
 */
async function writeAllThenRead(
  baseUrl: string,
  path: string,
  contentType: string,
  body: Buffer,
): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.pause();
  const head =
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: ${contentType}\r\n` +
    `Content-Length: ${body.length}\r\nAccept: application/json\r\n\r\n`;
  let writeError: Error | undefined;
  let readError: Error | undefined;
  socket.on('error', (error) => {
    readError ??= error;
  });
  await new Promise<void>((resolve) => {
    socket.write(Buffer.concat([Buffer.from(head), body]), (error) => {
      writeError = error ?? undefined;
      resolve();
    });
  });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.resume();
  await new Promise((resolve) => socket.once('close', resolve));
  const text = Buffer.concat(chunks).toString('utf8');
  const [rawHead = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = rawHead.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  return {
    writeError,
    readError,
    status: status === undefined ? undefined : Number(status),
    headers,
    body: rest.join('\r\n\r\n'),
  };
}

// 8 MiB: more than loopback's socket buffers absorb (the sender's grows to 4 MiB), so the client is still
// writing when the server answers, as with a 2 MiB body over a real network. Without the fix: EPIPE.
const SIZE = 8 << 20;

describe('request bodies over the limit', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it.each([
    [
      'a JSON route',
      '/api/v1/system-kinds',
      'application/json',
      () => JSON.stringify({ name: 'x'.repeat(SIZE) }),
    ],
    [
      'the login form',
      '/api/v1/login',
      'application/x-www-form-urlencoded',
      () => `username=${USER.email}&password=${'p'.repeat(SIZE)}`,
    ],
  ])(
    '%s: a client that sends its whole 8 MiB body before reading gets the 413 envelope, then the connection closes',
    async (_name, path, contentType, makeBody) => {
      const exchange = await writeAllThenRead(ctx.baseUrl, path, contentType, Buffer.from(makeBody()));
      expect({ writeError: exchange.writeError?.message, readError: exchange.readError?.message }).toEqual({
        writeError: undefined,
        readError: undefined,
      });
      expect(exchange.status).toBe(413);
      expect(exchange.headers['connection']).toBe('close');
      const envelope = JSON.parse(exchange.body) as { error_code: string; request_id: string };
      expect(envelope.error_code).toBe('PAYLOAD_TOO_LARGE');
      expect(envelope.request_id).toBe(exchange.headers['x-request-id']);
      // The server is unharmed.
      expect((await ctx.request('GET', '/health/live')).status).toBe(200);
    },
  );
});
