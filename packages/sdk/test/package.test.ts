// The packed tarballs of @aide/schemas and @aide/sdk (made by test/global-setup.mjs with `pnpm pack`),
// installed with npm into a throwaway project outside the workspace, as a service in another repository
// would: its contents, ESM and CommonJS consumers talking to the real backend, TypeScript consumers.
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { backend } from './helpers/backend.js';
import { installTarballs, tarball } from './helpers/tarballs.js';
import { typecheck } from './helpers/typecheck.js';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

let scratch: string;
let project: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'aide-sdk-outside-'));
  project = join(scratch, 'service');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'outside-service', private: true }));
  await installTarballs(project, ['schemas', 'sdk']);
}, 300_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe.each(['schemas', 'sdk'] as const)('the @aide/%s tarball', (name) => {
  let root: string;
  let files: string[];
  let manifest: Record<string, unknown>;
  beforeAll(async () => {
    const dir = join(scratch, `unpacked-${name}`);
    mkdirSync(dir);
    await run('tar', ['-xzf', tarball(name), '-C', dir]);
    root = join(dir, 'package');
    files = filesUnder(root);
    manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  });

  it('carries the build, its declarations, README and LICENSE, and no .tsbuildinfo or tests', () => {
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']),
    );
    expect(files.filter((f) => /tsbuildinfo|\.spec\.|(^|\/)test\//.test(f))).toEqual([]);
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toContain('Apache License');
  });

  it('names its repository, is published publicly, and depends on nothing of the workspace', () => {
    expect(manifest['repository']).toMatchObject({ type: 'git', directory: `packages/${name}` });
    expect(manifest['publishConfig']).toEqual({ access: 'public' });
    expect(manifest['license']).toBe('Apache-2.0');
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
  });

  it('has source maps whose sources are in the tarball', () => {
    const maps = files.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(join(root, map), 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const path = resolve(dirname(join(root, map)), source);
        if (!existsSync(path)) missing.push(`${map} -> ${source}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('installed in a project outside the workspace', () => {
  const env = () => ({
    ...process.env,
    AIDE_SDK_TEST_BASE_URL: backend.baseUrl,
    AIDE_SDK_TEST_USERNAME: backend.username,
    AIDE_SDK_TEST_PASSWORD: backend.password,
  });

  it('installs only what it needs: no zod-openapi (the backend-only OpenAPI generator)', () => {
    expect(existsSync(join(project, 'node_modules', '@aide', 'sdk', 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'zod-openapi'))).toBe(false);
  });

  it('is a lean client: no command-line parser nor YAML (the provider and its CLI are @aide/provider)', () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const unwanted = ['commander', 'yaml', '@aide/provider'];
    expect(Object.keys(manifest.dependencies).filter((name) => unwanted.includes(name))).toEqual([]);
    // Nor through a dependency of a dependency.
    expect(unwanted.filter((name) => existsSync(join(project, 'node_modules', name)))).toEqual([]);
  });

  it('an ES module imports it and calls the backend', async () => {
    for (const file of ['exercise.cjs', 'program.mjs', 'program.cjs']) {
      copyFileSync(join(packageDir, 'test', 'outside', file), join(project, file));
    }
    const { stdout } = await run(process.execPath, ['program.mjs'], {
      cwd: project,
      env: env(),
      timeout: 30_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({ email: backend.username, notFound: true, version: '0.1.0' });
  });

  it('a CommonJS module requires it and calls the backend; import gives the same module', async () => {
    const { stdout, stderr } = await run(process.execPath, ['program.cjs'], {
      cwd: project,
      env: env(),
      timeout: 30_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({
      email: backend.username,
      notFound: true,
      version: '0.1.0',
      sameModule: true,
    });
    expect(stderr).toBe('');
  });

  it('a cold import loads neither zod-openapi nor the OpenAPI generator', async () => {
    copyFileSync(
      join(packageDir, 'test', 'consumer', 'loaded-modules.mjs'),
      join(project, 'loaded-modules.mjs'),
    );
    const { stdout } = await run(process.execPath, ['loaded-modules.mjs'], { cwd: project, timeout: 30_000 });
    const urls = [...new Set(JSON.parse(stdout) as string[])];
    expect(urls.some((url) => url.includes('/node_modules/@aide/schemas/dist/index.js'))).toBe(true);
    expect(urls.filter((url) => /zod-openapi|\/openapi\.js$/.test(url))).toEqual([]);
  });

  it('type-checks a strict TypeScript consumer, as an ES module and as CommonJS', async () => {
    const source = readFileSync(join(packageDir, 'test', 'consumer', 'consumer.ts'), 'utf8');
    writeFileSync(join(project, 'consumer.mts'), source);
    writeFileSync(join(project, 'consumer.cts'), source);
    expect(await typecheck(project, ['consumer.mts', 'consumer.cts'])).toBe('');
  }, 120_000);
});
