// The SQLite engine is chosen at run time (ADR 0038): the optional better-sqlite3 where it is installed
// and built, else node:sqlite where Node has it, else a clear error naming both — never a crash at
// start-up of a crawler that has neither and crawls PostgreSQL or MySQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { withSqliteCatalog } from '../src/connection/catalog.js';
import {
  loadSqliteEngine,
  NO_SQLITE_ENGINE_MESSAGE,
  type ModuleImporter,
} from '../src/connection/sqlite-engine.js';
import { parseConnectionUrl } from '../src/connection/url.js';
import { CrawlerError, ExitCode } from '../src/errors.js';
import { execSqlite } from './helpers/sqlite.js';

const missing = (specifier: string) =>
  Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });

describe('choosing the SQLite engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aide-crawler-engine-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with one message naming node:sqlite and better-sqlite3 when neither loads', async () => {
    const neither: ModuleImporter = (specifier) => Promise.reject(missing(specifier));
    const error = await loadSqliteEngine(neither).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlerError);
    expect((error as CrawlerError).exitCode).toBe(ExitCode.FAILURE);
    expect((error as CrawlerError).message).toBe(NO_SQLITE_ENGINE_MESSAGE);
    expect(NO_SQLITE_ENGINE_MESSAGE).toMatch(/Node\.js 22\.13.*node:sqlite.*better-sqlite3/);
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
        : Promise.reject(missing(specifier));
    const error = await loadSqliteEngine(importer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlerError);
    expect((error as CrawlerError).message).toBe(NO_SQLITE_ENGINE_MESSAGE);
    expect((error as CrawlerError).cause).toBe(unbuilt);
  });

  it('falls back to node:sqlite when better-sqlite3 is missing', async () => {
    const imported: string[] = [];
    class DatabaseSync {
      constructor(
        readonly path: string,
        readonly options: unknown,
      ) {}
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
    const engine = await loadSqliteEngine(importer);
    expect(engine.name).toBe('node:sqlite');
    const rows = engine.open('x.db', { readonly: true }).all<{ answer: number }>('SELECT 42 AS answer');
    // Plain objects, as better-sqlite3 returns them (node:sqlite's rows have a null prototype).
    expect(rows).toEqual([{ answer: 42 }]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(imported).toEqual(['better-sqlite3', 'node:sqlite']);
  });

  it('makes a SQLite crawl fail with that message, before any file is opened', async () => {
    const file = join(dir, 'app.db');
    await execSqlite(file, 'CREATE TABLE t (id INTEGER PRIMARY KEY);\n');
    const neither: ModuleImporter = (specifier) => Promise.reject(missing(specifier));
    let worked = false;
    const crawl = withSqliteCatalog(
      parseConnectionUrl(`sqlite:///${file}`),
      () => Promise.resolve((worked = true)),
      undefined,
      () => loadSqliteEngine(neither),
    );
    await expect(crawl).rejects.toBeInstanceOf(CrawlerError);
    await expect(crawl).rejects.toThrow(NO_SQLITE_ENGINE_MESSAGE);
    expect(worked).toBe(false);
  });

  it('prefers an installed better-sqlite3, and never imports node:sqlite then', async () => {
    const imported: string[] = [];
    class Database {
      close() {}
    }
    const importer: ModuleImporter = (specifier) => {
      imported.push(specifier);
      return Promise.resolve(specifier === 'better-sqlite3' ? { default: Database } : {});
    };
    expect((await loadSqliteEngine(importer)).name).toBe('better-sqlite3');
    expect(imported).toEqual(['better-sqlite3']);
  });

  it('loads a working engine here', async () => {
    const engine = await loadSqliteEngine();
    const db = engine.open(':memory:', { readonly: false });
    expect(db.all<{ v: string }>('SELECT sqlite_version() AS v')[0].v).toMatch(/^3\.\d+\.\d+$/);
    db.close();
  });
});
