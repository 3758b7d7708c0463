// What the built `aide-crawler` loads (ADR 0041): `--version` and `--help` load commander and the
// program's definition only, and an inspection loads its own dialect's driver and no zod schema (the
// classifier and type text come from the zod-free `@aide/schemas/version-changes`). Checked by the
// modules the process loaded, not by time (`pnpm bench cli` measures that).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inspectDatabase } from '../src/inspect/inspect.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';
import { execSqlite } from './helpers/sqlite.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const tracer = fileURLToPath(new URL('./fixtures/trace-modules.mjs', import.meta.url));

let tmp: string;
let db: TestPgDatabase;
let traces = 0;

/** Runs the built executable with `args` and returns the URLs of the modules it loaded. */
function modulesLoadedBy(args: string[]): string[] {
  const trace = join(tmp, `trace-${traces++}.txt`);
  const result = spawnSync(process.execPath, ['--import', tracer, bin, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', AIDE_TRACE_MODULES: trace },
  });
  expect(result.stderr).not.toMatch(/error/i);
  expect(result.status).toBe(0);
  return readFileSync(trace, 'utf8').split('\n').filter(Boolean);
}

/** The loaded modules of a package (by its directory in node_modules or packages/). */
const of = (modules: string[], pkg: RegExp) => modules.filter((url) => pkg.test(url));

const DRIVERS = /\/node_modules\/(knex|pg|pg-protocol|mysql2|better-sqlite3|tarn)\//;
const ZOD = /\/node_modules\/zod\//;
// The package root of @aide/schemas (every wire schema) or of @aide/sdk (the registry client).
const SCHEMA_GROUPS = /\/packages\/schemas\/(dist|src)\/(index|entities|contract|resources)/;
const REGISTRY_CLIENT = /\/packages\/sdk\/(dist|src)\/(index|client|resources)|\/node_modules\/undici\//;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-start-up-'));
  db = await createPgDatabase('startup');
  await db.exec(`CREATE TABLE orders (id bigint PRIMARY KEY, placed date DEFAULT now())`);
});

afterAll(async () => {
  await db?.drop();
  rmSync(tmp, { recursive: true, force: true });
}, 180_000);

describe('aide-crawler start-up', () => {
  it.each(['--version', '--help', 'inspect --help'])(
    'loads commander and the program only for %s',
    (command) => {
      const modules = modulesLoadedBy(command.split(' '));
      // The trace is complete: it has the program and commander.
      expect(of(modules, /\/crawler\/dist\/program\.js$/)).toHaveLength(1);
      expect(of(modules, /\/node_modules\/commander\//).length).toBeGreaterThan(0);
      expect(of(modules, DRIVERS)).toEqual([]);
      expect(of(modules, ZOD)).toEqual([]);
      expect(of(modules, SCHEMA_GROUPS)).toEqual([]);
      expect(of(modules, REGISTRY_CLIENT)).toEqual([]);
      expect(of(modules, /\/crawler\/dist\/(inspect|registry|diff|connection)\//)).toEqual([
        expect.stringMatching(/\/inspect\/filters\.js$/),
      ]);
      // The source registry (the URL forms of the help), none of its drivers.
      const sources = of(modules, /\/crawler\/dist\/sources\//).map((url) => url.replace(/^.*\//, ''));
      expect(sources.sort()).toEqual(['redact.js', 'registry.js']);
    },
  );

  it('inspects PostgreSQL to JSON with pg, without knex, mysql2, zod or the registry client', () => {
    const out = join(tmp, 'pg.json');
    const modules = modulesLoadedBy(['inspect', '--connection-url', db.url, '--format', 'json', '-o', out]);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ tables: [{ name: 'orders' }] });
    expect(of(modules, /\/node_modules\/pg\//).length).toBeGreaterThan(0);
    // knex (and its pool, tarn) is MySQL's only: ~0.25 s of start-up (ADR 0041 amendment).
    expect(of(modules, /\/node_modules\/(knex|tarn|mysql2)\//)).toEqual([]);
    expect(of(modules, /\/crawler\/dist\/inspect\/(mysql|sqlite)\.js$/)).toEqual([]);
    expect(of(modules, ZOD)).toEqual([]);
    expect(of(modules, SCHEMA_GROUPS)).toEqual([]);
    expect(of(modules, REGISTRY_CLIENT)).toEqual([]);
    // pg is loaded without its Cloudflare probe, whose fetch Response loads Node's undici (ADR 0060).
    expect(of(modules, /^node-internal:.*undici/)).toEqual([]);
  });

  it('leaves the global fetch Response working once pg is loaded', async () => {
    const inspected = await inspectDatabase({ connectionUrl: db.url });
    expect(inspected.tables.map((t) => t.name)).toEqual(['orders']);
    expect(typeof Response).toBe('function');
    expect(await new Response('still there').text()).toBe('still there');
  });

  it('inspects SQLite as text without knex or a server driver, and without zod', async () => {
    const file = join(tmp, 'shop.db');
    await execSqlite(file, 'CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL);\n');
    const modules = modulesLoadedBy(['inspect', '--connection-url', `sqlite:///${file}`]);
    expect(of(modules, /\/crawler\/dist\/output\/text\.js$/)).toHaveLength(1);
    expect(of(modules, /\/node_modules\/(knex|pg|mysql2|tarn)\//)).toEqual([]);
    expect(of(modules, ZOD)).toEqual([]);
    expect(of(modules, SCHEMA_GROUPS)).toEqual([]);
  });
});
