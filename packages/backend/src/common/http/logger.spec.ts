import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { type FastifyBaseLogger, fastify } from 'fastify';
import { pino } from 'pino';
import { createLogger, lazyChildLogger, RequestLogController } from './logger.js';

/** A Fastify server logging like the API's (lazy per-request child, one line per request) into `lines`. */
async function server(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger: FastifyBaseLogger = pino({ level }, stream);
  let children = 0;
  // The logger Fastify hands to the factory, with its child() counted.
  const counted = (parent: FastifyBaseLogger) =>
    new Proxy(parent, {
      get(target, key, receiver) {
        if (key !== 'child') return Reflect.get(target, key, receiver) as unknown;
        return (...args: Parameters<FastifyBaseLogger['child']>) => {
          children++;
          return target.child(...args);
        };
      },
    });
  const app = fastify({
    loggerInstance: logger,
    logController: new RequestLogController(),
    genReqId: () => 'req-1',
  });
  app.setChildLoggerFactory((parent, bindings, options) =>
    lazyChildLogger(counted(parent), bindings, options),
  );
  app.get('/quiet', () => ({ ok: true }));
  app.get('/warns', (request) => {
    request.log.warn({ reason: 'x' }, 'something odd');
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // A real request (inject's light-my-request does not load under Jest's ESM mode).
  const get = async (path: string) =>
    (await fetch(`${base}${path}`, { headers: { connection: 'close' } })).text();
  // Start-up (Fastify's own children, the "listening" line) is not what is tested.
  lines.length = 0;
  children = 0;
  return { app, get, lines, children: () => children };
}

describe('lazyChildLogger', () => {
  it('writes every line of a request with its request_id', async () => {
    const { app, get, lines } = await server('info');
    await get('/warns');
    await app.close();
    expect(lines.map((l) => [l['msg'], l['request_id']])).toEqual([
      ['something odd', 'req-1'],
      ['request completed', 'req-1'],
    ]);
  });

  it('makes no child logger for a request that writes no line', async () => {
    const { app, get, lines, children } = await server('warn');
    await get('/quiet');
    expect({ lines: lines.length, children: children() }).toEqual({ lines: 0, children: 0 });
    await get('/warns');
    await app.close();
    expect(children()).toBe(1);
    expect(lines.map((l) => [l['msg'], l['request_id']])).toEqual([['something odd', 'req-1']]);
  });
});

describe('createLogger', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    return { lines, destination };
  };

  it('logs JSON with one warning when pretty logs are asked for and pino-pretty is not installed', () => {
    const { lines, destination } = capture();
    const logger = createLogger(
      { logLevel: 'info', logFormat: 'pretty' },
      { prettyInstalled: () => false, destination },
    );
    logger.info('started');
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [
        40,
        'pretty logs need the pino-pretty package, which is not installed (a development dependency): logging JSON',
      ],
      [30, 'started'],
    ]);
  });

  it('has pino-pretty in a development install, where `pnpm start` logs pretty on a TTY', () => {
    const { lines, destination } = capture();
    createLogger({ logLevel: 'info', logFormat: 'json' }, { destination }).info('plain');
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'plain', service: 'aide-metastore' })]);
    expect(() => createRequire(import.meta.url).resolve('pino-pretty')).not.toThrow();
  });
});
