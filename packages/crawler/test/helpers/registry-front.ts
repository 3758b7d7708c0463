// A real HTTP front for the real backend: every request is passed through, unless `answer` answers
// it itself, and is recorded (method, path, body), so that a test sees which routes a command read
// and can act between two of its requests.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestBackend } from './backend.js';

export interface FrontRequest {
  method: string;
  path: string;
  body: string;
}

export interface RegistryFront {
  /** The front's URL, for AIDE_METASTORE_URL. */
  url: string;
  /** The requests seen so far. */
  requests: FrontRequest[];
  close(): Promise<void>;
}

/**
 * `answer` runs before a request is passed on: it may answer it (returning true), or do something
 * first (publish a version) and let it through (returning false).
 */
export async function registryFront(
  backend: TestBackend,
  answer: (seen: FrontRequest, res: ServerResponse) => Promise<boolean> | boolean = () => false,
): Promise<RegistryFront> {
  const target = new URL(backend.baseUrl);
  const requests: FrontRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(seen);
      void Promise.resolve(answer(seen, res)).then((answered) => {
        if (answered) return;
        const upstream = request(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (reply) => {
            res.writeHead(reply.statusCode ?? 502, reply.headers);
            reply.pipe(res);
          },
        );
        upstream.end(Buffer.concat(chunks));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A front answering the fingerprint route as a registry older than ADR 0032 does: generic NOT_FOUND. */
export function olderRegistry(backend: TestBackend): Promise<RegistryFront> {
  return registryFront(backend, (seen, res) => {
    if (!seen.path.includes('/snapshot/fingerprints')) return false;
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error_code: 'NOT_FOUND', detail: 'Route not found.', request_id: 'older' }));
    return true;
  });
}
