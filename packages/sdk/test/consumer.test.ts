// The built package (dist/, made by the test script before jest runs), used the way a consumer uses it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import { backend } from './helpers/backend.js';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the built package', () => {
  it('imports from dist/index.js and talks to the backend', async () => {
    const specifier = '../dist/index.js';
    const sdk = (await import(specifier)) as typeof import('../src/index.js');
    const client = new sdk.AideClient({
      baseUrl: backend.baseUrl,
      username: backend.username,
      password: backend.password,
    });
    try {
      expect((await client.users.me()).email).toBe(backend.username);
      await expect(client.systemKinds.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
        sdk.NotFoundError,
      );
    } finally {
      await client.close();
    }
  });

  it('works in a plain Node program importing @aide/sdk by name', async () => {
    const { stdout } = await run(process.execPath, [join(packageDir, 'test', 'consumer', 'consumer.mjs')], {
      env: process.env,
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({ email: backend.username, notFound: true });
  });

  it('a cold import does not load the OpenAPI generator (zod-openapi)', async () => {
    const { stdout } = await run(
      process.execPath,
      [join(packageDir, 'test', 'consumer', 'loaded-modules.mjs')],
      { timeout: 20_000 },
    );
    const urls = [...new Set(JSON.parse(stdout) as string[])];
    // The hook saw the graph: the SDK's own modules, the contract and zod.
    expect(urls).toEqual(expect.arrayContaining([expect.stringMatching(/\/schemas\/dist\/index\.js$/)]));
    expect(urls.some((url) => url.includes('/zod/'))).toBe(true);
    expect(urls.filter((url) => /zod-openapi|\/openapi\.js$/.test(url))).toEqual([]);
  });

  it('its declarations type-check a strict consumer', async () => {
    const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
    const result = await run(
      process.execPath,
      [tsc, '-p', join(packageDir, 'test', 'consumer', 'tsconfig.json')],
      { timeout: 60_000 },
    ).catch((error: { stdout?: string; code?: number }) => error);
    expect(result.stdout).toBe('');
  }, 60_000);

  it('reports the package version', async () => {
    const { VERSION } = await import('../src/version.js');
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(VERSION).toBe(manifest.version);
  });
});
