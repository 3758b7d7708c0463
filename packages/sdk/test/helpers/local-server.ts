import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON. */
  body?: unknown;
}

/** `stall`: never answer; `reset`: destroy the connection without answering. */
export type Script = (request: RecordedRequest, index: number) => Reply | 'stall' | 'reset';

export interface LocalServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function send(res: ServerResponse, reply: Reply): void {
  const json = reply.body !== undefined && typeof reply.body !== 'string';
  const text = reply.body === undefined ? '' : json ? JSON.stringify(reply.body) : (reply.body as string);
  res.writeHead(reply.status, {
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...reply.headers,
  });
  res.end(text);
}

/** A real HTTP server on a free loopback port that answers by script and records what it received. */
export async function startLocalServer(script: Script): Promise<LocalServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const outcome = script(recorded, requests.length - 1);
      if (outcome === 'stall') return;
      if (outcome === 'reset') {
        req.socket.destroy();
        return;
      }
      send(res, outcome);
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

export interface FaultyProxy {
  url: string;
  /** `METHOD /path` of every request forwarded. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A reverse proxy to `target` that forwards every request, and for those `drop` selects, lets the
 * server process it but cuts the connection instead of relaying the answer: a response lost on the way.
 */
export async function startFaultyProxy(
  target: string,
  drop: (method: string, path: string, index: number) => boolean,
): Promise<FaultyProxy> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const index = requests.push(`${req.method} ${req.url}`) - 1;
    const upstream = httpRequest(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        if (drop(req.method ?? '', (req.url ?? '').split('?')[0] ?? '', index)) {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
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
