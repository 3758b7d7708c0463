// What the bare baselines (bare-server.mjs, bare-intake-server.mjs) share: a JSON answer, and a
// node:http server on PORT that prints "listening <port>" once ready and stops on SIGTERM/SIGINT.
import { createServer } from 'node:http';

export function send(res, status, body) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/** Serves `handle(req, res)` (a 500 when it throws) until a signal, then ends `pool` and exits. */
export function serveBare(handle, pool) {
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      process.stderr.write(`request failed: ${error.message}\n`);
      if (!res.headersSent) send(res, 500, { code: 'INTERNAL_ERROR' });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`listening ${server.address().port}\n`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
