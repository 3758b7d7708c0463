// The SQLite engine is chosen at run time (ADR 0038, ADR 0040): better-sqlite3 where it is installed and
// built, else node:sqlite where Node has it, else node-sqlite3-wasm (a dependency: always there), or the
// one AIDE_CRAWLER_SQLITE_ENGINE names. Every engine that loads here reads the realistic fixture the same
// way, read-only, WAL files included; what an engine lacks fails with a message that says so.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { withSqliteCatalog } from '../src/connection/catalog.js';
import {
  availableSqliteEngines,
  loadSqliteEngine,
  NO_SQLITE_ENGINE_MESSAGE,
  SQLITE_ENGINE_VARIABLE,
  type ModuleImporter,
  type SqliteEngine,
} from '../src/connection/sqlite-engine.js';
import { parseConnectionUrl } from '../src/connection/url.js';
import { CrawlerError, ExitCode } from '../src/errors.js';
import { inspectDatabase } from '../src/inspect/inspect.js';
import { execSqlite } from './helpers/sqlite.js';

const missing = (specifier: string) =>
  Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
const realImport: ModuleImporter = (specifier) => import(specifier);
/** The real modules, less the named ones: as on a machine where they are not installed. */
const without =
  (...absent: string[]): ModuleImporter =>
  (specifier) =>
    absent.includes(specifier) ? Promise.reject(missing(specifier)) : realImport(specifier);

const engines = await availableSqliteEngines();
const dir = mkdtempSync(join(tmpdir(), 'aide-crawler-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('choosing the SQLite engine', () => {
  it('tries better-sqlite3, then node:sqlite, then node-sqlite3-wasm', async () => {
    const imported: string[] = [];
    const importer: ModuleImporter = (specifier) => {
      imported.push(specifier);
      return specifier === 'node-sqlite3-wasm' ? realImport(specifier) : Promise.reject(missing(specifier));
    };
    expect((await loadSqliteEngine(importer, null)).name).toBe('node-sqlite3-wasm');
    expect(imported).toEqual(['better-sqlite3', 'node:sqlite', 'node-sqlite3-wasm']);
  });

  it('treats an installed better-sqlite3 whose native binding does not load as missing', async () => {
    const unbuilt = new Error('Could not locate the bindings file');
    const importer: ModuleImporter = (specifier) =>
      specifier === 'better-sqlite3'
        ? Promise.resolve({
            default: class {
              constructor() {
                throw unbuilt;
              }
            },
          })
        : without('node:sqlite')(specifier);
    expect((await loadSqliteEngine(importer, null)).name).toBe('node-sqlite3-wasm');
  });

  it('falls back to node:sqlite when better-sqlite3 is missing, with plain-object rows', async () => {
    const imported: string[] = [];
    class DatabaseSync {
      prepare() {
        return { all: () => [Object.assign(Object.create(null) as object, { answer: 42 })] };
      }
      exec() {}
      close() {}
    }
    const importer: ModuleImporter = (specifier) => {
      imported.push(specifier);
      return specifier === 'node:sqlite'
        ? Promise.resolve({ DatabaseSync })
        : Promise.reject(missing(specifier));
    };
    const engine = await loadSqliteEngine(importer, null);
    expect(engine.name).toBe('node:sqlite');
    const rows = engine.open('x.db', { readonly: true }).all<{ answer: number }>('SELECT 42 AS answer');
    expect(rows).toEqual([{ answer: 42 }]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(imported).toEqual(['better-sqlite3', 'node:sqlite']);
  });

  it('fails with one message when no engine loads, before any file is opened', async () => {
    const none: ModuleImporter = (specifier) => Promise.reject(missing(specifier));
    const error = await loadSqliteEngine(none, null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlerError);
    expect((error as CrawlerError).exitCode).toBe(ExitCode.FAILURE);
    expect((error as CrawlerError).message).toBe(NO_SQLITE_ENGINE_MESSAGE);
    expect(NO_SQLITE_ENGINE_MESSAGE).toMatch(/better-sqlite3.*node:sqlite.*node-sqlite3-wasm/);

    const file = join(dir, 'none.db');
    await execSqlite(file, 'CREATE TABLE t (id INTEGER PRIMARY KEY);\n');
    let worked = false;
    const crawl = withSqliteCatalog(
      parseConnectionUrl(`sqlite:///${file}`),
      () => Promise.resolve((worked = true)),
      undefined,
      () => loadSqliteEngine(none, null),
    );
    await expect(crawl).rejects.toThrow(NO_SQLITE_ENGINE_MESSAGE);
    expect(worked).toBe(false);
  });

  it(`uses the engine ${SQLITE_ENGINE_VARIABLE} names, and says so when it does not load`, async () => {
    expect((await loadSqliteEngine(realImport, 'node-sqlite3-wasm')).name).toBe('node-sqlite3-wasm');
    const absent = await loadSqliteEngine(without('better-sqlite3'), 'better-sqlite3').catch(
      (e: unknown) => e,
    );
    expect(absent).toBeInstanceOf(CrawlerError);
    expect((absent as Error).message).toMatch(
      new RegExp(
        `^${SQLITE_ENGINE_VARIABLE}=better-sqlite3, but better-sqlite3 does not load here: Cannot find`,
      ),
    );
    await expect(loadSqliteEngine(realImport, 'sqlite4')).rejects.toThrow(
      `${SQLITE_ENGINE_VARIABLE}=sqlite4 names no SQLite engine: use one of better-sqlite3, node:sqlite, node-sqlite3-wasm`,
    );
  });

  it('reads the variable when no engine is passed', async () => {
    const previous = process.env[SQLITE_ENGINE_VARIABLE];
    process.env[SQLITE_ENGINE_VARIABLE] = 'sqlite4';
    try {
      await expect(loadSqliteEngine()).rejects.toThrow(/sqlite4 names no SQLite engine/);
    } finally {
      if (previous === undefined) delete process.env[SQLITE_ENGINE_VARIABLE];
      else process.env[SQLITE_ENGINE_VARIABLE] = previous;
    }
  });

  it('always has node-sqlite3-wasm, which needs no build', () => {
    expect(engines.map((engine) => engine.name)).toContain('node-sqlite3-wasm');
  });
});

/** Inspects a file through one engine, as `aide-crawler inspect` does with the variable set. */
async function inspectWith(engine: SqliteEngine, file: string) {
  const previous = process.env[SQLITE_ENGINE_VARIABLE];
  process.env[SQLITE_ENGINE_VARIABLE] = engine.name;
  try {
    return await inspectDatabase({ connectionUrl: `sqlite:///${file}` });
  } finally {
    if (previous === undefined) delete process.env[SQLITE_ENGINE_VARIABLE];
    else process.env[SQLITE_ENGINE_VARIABLE] = previous;
  }
}

/** The inspection less what differs by engine: its SQLite version and the time it took. */
const comparable = (inspected: Awaited<ReturnType<typeof inspectDatabase>>) =>
  JSON.parse(
    JSON.stringify({ ...inspected, server: undefined, summary: { ...inspected.summary, duration_ms: 0 } }),
  );

describe.each(engines.map((engine) => [engine.name, engine] as const))('the %s engine', (_, engine) => {
  const realistic = join(dir, `${engine.name.replace(/\W/g, '-')}-music.db`);
  beforeAll(async () => {
    await execSqlite(
      realistic,
      readFileSync(new URL('./fixtures/sqlite-realistic.sql', import.meta.url), 'utf8'),
    );
  });

  it('reads the realistic fixture, its FTS5 table included, as every other engine does', async () => {
    const inspected = await inspectWith(engine, realistic);
    expect(inspected.tables.find((t) => t.name === 'track_search')?.columns.map((c) => c.name)).toEqual([
      'name',
      'composer',
    ]);
    for (const other of engines.filter((e) => e !== engine)) {
      expect(comparable(await inspectWith(other, realistic))).toEqual(comparable(inspected));
    }
  });

  it('opens the file read-only: writes fail, the bytes are unchanged and nothing is left beside it', async () => {
    const before = readFileSync(realistic);
    const db = engine.open(realistic, { readonly: true });
    try {
      expect(() => db.exec('CREATE TABLE written (x)')).toThrow(/readonly|read-only/i);
    } finally {
      db.close();
    }
    await inspectWith(engine, realistic);
    expect(readFileSync(realistic).equals(before)).toBe(true);
    for (const suffix of ['-journal', '-wal', '.lock']) expect(existsSync(realistic + suffix)).toBe(false);
  });

  it('reads a WAL-mode file, frames not yet checkpointed included', async () => {
    // A copy taken while its writer had not checkpointed: the rows are in the -wal file only.
    const written = join(dir, `${engine.name.replace(/\W/g, '-')}-writer.db`);
    const copy = join(dir, `${engine.name.replace(/\W/g, '-')}-wal.db`);
    const writer = (await loadSqliteEngine()).open(written, { readonly: false });
    writer.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE in_wal_only (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
    copyFileSync(written, copy);
    copyFileSync(`${written}-wal`, `${copy}-wal`);
    writer.close();

    const inspected = await inspectWith(engine, copy);
    expect(inspected.tables.map((t) => [t.name, t.columns.map((c) => c.name)])).toEqual([
      ['in_wal_only', ['id', 'label']],
    ]);
  });

  it('names itself and better-sqlite3 when a file needs a module it lacks', async () => {
    // An R*Tree table, declared the way SQLite stores it (the engine writing it may lack the module).
    const file = join(dir, `${engine.name.replace(/\W/g, '-')}-rtree.db`);
    await execSqlite(file, 'CREATE TABLE places (id INTEGER PRIMARY KEY);\n');
    const writer = (await loadSqliteEngine(realImport, 'node-sqlite3-wasm')).open(file, { readonly: false });
    writer.exec(`PRAGMA writable_schema = ON;
      INSERT INTO sqlite_schema VALUES ('table', 'geo', 'geo', 0, 'CREATE VIRTUAL TABLE geo USING rtree(id, minx, maxx)')`);
    writer.close();

    const probe = engine.open(':memory:', { readonly: false });
    const hasRtree = probe.all(`SELECT 1 FROM pragma_module_list WHERE name = 'rtree'`).length > 0;
    probe.close();
    if (engine.name === 'better-sqlite3') expect(hasRtree).toBe(true);
    if (engine.name === 'node-sqlite3-wasm') expect(hasRtree).toBe(false);
    if (hasRtree) return; // the forged table has no shadow tables: only the engines without it are checked
    await expect(inspectWith(engine, file)).rejects.toThrow(
      new RegExp(
        `reading the SQLite catalog failed at .*: no such module: rtree \\(the SQLite engine in use, ${engine.name}, ` +
          `was built without it; better-sqlite3 has FTS3/4/5, R\\*Tree and Geopoly`,
      ),
    );
  });
});

describe('the node-sqlite3-wasm engine, which locks with a directory beside the file', () => {
  const wasm = engines.find((engine) => engine.name === 'node-sqlite3-wasm')!;

  it('says which directory holds the lock when another reader (or a killed one) has it', async () => {
    const file = join(dir, 'locked.db');
    await execSqlite(file, 'CREATE TABLE t (id INTEGER PRIMARY KEY);\n');
    mkdirSync(`${file}.lock`);
    await expect(inspectWith(wasm, file)).rejects.toThrow(
      `cannot connect to SQLite at sqlite:///${file}: database is locked: node-sqlite3-wasm, the SQLite engine ` +
        `in use, locks a file by creating the directory ${file}.lock, and it exists`,
    );
    rmSync(`${file}.lock`, { recursive: true });
    expect((await inspectWith(wasm, file)).tables.map((t) => t.name)).toEqual(['t']);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
