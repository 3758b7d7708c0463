// The packed tarballs of @aide/schemas, @aide/sdk and @aide/crawler (made by test/global-setup.mjs with
// `pnpm pack`), installed with npm into a blank project outside the workspace, as a data team's job
// repository would: the tarball's contents, and `aide-crawler` run by name through npx — its version,
// its help and a real inspection of a SQLite file (no native build: npm runs no install script here, so
// SQLite is read through node-sqlite3-wasm).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installTarballs, tarball } from '../../sdk/test/helpers/tarballs.js';
import { VERSION } from '../src/version.js';

const run = promisify(execFile);

let scratch: string;
let project: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'aide-crawler-outside-'));
  project = join(scratch, 'jobs');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'jobs', private: true }));
  await installTarballs(project, ['schemas', 'sdk', 'crawler']);
}, 300_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the @aide/crawler tarball', () => {
  let files: string[];
  let manifest: {
    version: string;
    dependencies: Record<string, string>;
    optionalDependencies: Record<string, string>;
    bin: Record<string, string>;
  };
  beforeAll(async () => {
    const dir = join(scratch, 'unpacked');
    mkdirSync(dir);
    await run('tar', ['-xzf', tarball('crawler'), '-C', dir]);
    const root = join(dir, 'package');
    files = readdirSync(root, { recursive: true, encoding: 'utf8' });
    manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as typeof manifest;
  });

  it('carries the build, the bin, README and LICENSE, and no tests', () => {
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/bin.js']),
    );
    expect(files.filter((f) => /tsbuildinfo|(^|\/)test\//.test(f))).toEqual([]);
    expect(manifest.bin).toEqual({ 'aide-crawler': './dist/bin.js' });
  });

  it('depends on the published @aide/sdk and @aide/schemas, never on the workspace; better-sqlite3 optionally', () => {
    expect(manifest.dependencies['@aide/sdk']).toBe(VERSION);
    expect(manifest.dependencies['@aide/schemas']).toBe(VERSION);
    expect(Object.keys(manifest.optionalDependencies)).toEqual(['better-sqlite3']);
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    expect(manifest.version).toBe(VERSION);
  });
});

describe('installed in a blank project', () => {
  const npx = (args: string[]) =>
    run('npx', ['--no-install', ...args], {
      cwd: project,
      timeout: 60_000,
      env: { ...process.env, CI: 'true' },
    });

  it('`npx aide-crawler --version` and `npx @aide/crawler --help`', async () => {
    expect((await npx(['aide-crawler', '--version'])).stdout.trim()).toBe(VERSION);
    const help = await npx(['@aide/crawler', '--help']);
    expect(help.stdout).toMatch(/^Usage: aide-crawler /);
    expect(help.stdout).toMatch(/^ {2}crawl \[options\]/m);
  });

  it('`npx aide-crawler inspect` reads a SQLite file', async () => {
    // The file is written with the SQLite engine the install brought (a dependency of the crawler).
    const { Database } = createRequire(join(project, 'node_modules', '@aide', 'crawler', 'package.json'))(
      'node-sqlite3-wasm',
    ) as { Database: new (path: string) => { exec(sql: string): void; close(): void } };
    const db = new Database(join(project, 'shop.db'));
    db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total REAL)');
    db.close();
    const { stdout } = await npx([
      'aide-crawler',
      'inspect',
      '--connection-url',
      'sqlite:///shop.db',
      '--format',
      'json',
    ]);
    const inspection = JSON.parse(stdout) as {
      dialect: string;
      tables: { name: string; columns: { name: string; nullable: boolean }[] }[];
    };
    expect(inspection.dialect).toBe('sqlite');
    expect(inspection.tables.map((t) => t.name)).toEqual(['orders']);
    expect(inspection.tables[0]?.columns.map((c) => [c.name, c.nullable])).toEqual([
      ['id', false],
      ['customer', false],
      ['total', true],
    ]);
  });
});
