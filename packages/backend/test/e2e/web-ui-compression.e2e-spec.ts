import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerWebUi } from '../../src/web-ui.js';

// The /ui static serving of a built UI with precompressed copies (issue 28 #14): the `.br`/`.gz` the
// web build writes are sent to clients that accept them, the plain file to others, and hashed assets
// are cached for a year while index.html is revalidated.
describe('web UI: precompressed assets', () => {
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`.repeat(5);
  const html = `<!doctype html><html><head><title>AIDE</title></head><body>${'<div></div>'.repeat(100)}</body></html>`;
  let dir: string;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aide-web-ui-'));
    mkdirSync(join(dir, 'assets'));
    for (const [file, body] of [
      ['index.html', html],
      ['assets/index-abc123.js', script],
    ] as const) {
      writeFileSync(join(dir, file), body);
      writeFileSync(join(dir, `${file}.gz`), gzipSync(body));
      writeFileSync(join(dir, `${file}.br`), brotliCompressSync(body));
    }
    // A file the build left uncompressed (too small): always sent as is.
    writeFileSync(join(dir, 'assets/tiny-def456.css'), 'a{color:red}');
    app = Fastify();
    await registerWebUi(app, dir, () => undefined);
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A raw GET (no automatic decompression, unlike fetch): the bytes as the server sent them. */
  const get = (url: string, acceptEncoding?: string) =>
    new Promise<{
      statusCode: number;
      headers: Record<string, string | string[] | undefined>;
      rawPayload: Buffer;
      body: string;
    }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: url,
          headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const rawPayload = Buffer.concat(chunks);
            resolve({
              statusCode: res.statusCode ?? 0,
              headers: res.headers,
              rawPayload,
              body: rawPayload.toString(),
            });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('sends brotli to a client that accepts it, with a year of immutable caching', async () => {
    const res = await get('/ui/assets/index-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
  });

  it('sends gzip to a client that accepts only gzip', async () => {
    const res = await get('/ui/assets/index-abc123.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the plain file to a client that accepts no encoding', async () => {
    const res = await get('/ui/assets/index-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(res.body).toBe(script);
  });

  it('falls back to the plain file when no compressed copy exists', async () => {
    const res = await get('/ui/assets/tiny-def456.css', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/text\/css/);
    expect(res.body).toBe('a{color:red}');
  });

  it('answers a missing asset with 404, even to a client accepting compression', async () => {
    expect((await get('/ui/assets/nope.js', 'br, gzip')).statusCode).toBe(404);
  });

  it('sends index.html compressed but revalidated, for /ui and the app routes', async () => {
    for (const url of ['/ui', '/ui/', '/ui/datasets/x']) {
      const res = await get(url, 'br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(html);
    }
  });
});
