// The three SQLite engines behind the crawler's SQLite catalog (ADR 0038, ADR 0040), each adapted to the
// same three methods. Each `load…` imports its module through the given importer and proves that it
// works (a native binding that fails to load fails here, not mid-crawl), or throws.
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';

/** One open SQLite database: synchronous statements with positional `?` bindings. */
export interface SqliteDatabase {
  /** Every row of one statement, as plain objects. */
  all<Row>(sql: string, bindings?: readonly unknown[]): Row[];
  /** Runs statements that return no rows (several, separated by `;`). */
  exec(sql: string): void;
  close(): void;
}

export type SqliteEngineName = 'better-sqlite3' | 'node:sqlite' | 'node-sqlite3-wasm';

export interface SqliteEngine {
  readonly name: SqliteEngineName;
  /** Opens a file (`:memory:` for a private in-memory database); `readonly` requires the file to exist. */
  open(filename: string, options: { readonly: boolean }): SqliteDatabase;
}

/** Imports a module by specifier; rejects when it is missing or cannot load. Injectable for tests. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

/** The modules better-sqlite3 has and the other engines may lack: named by the hint below. */
const FULL_ENGINE_MODULES = 'FTS3/4/5, R*Tree and Geopoly';

interface SqliteConnection {
  prepare(sql: string): { all(...bindings: unknown[]): unknown[] };
  exec(sql: string): void;
  close(): void;
}

type BetterSqlite3Constructor = new (
  path: string,
  options?: { readonly?: boolean; fileMustExist?: boolean },
) => SqliteConnection;

export async function loadBetterSqlite3(importer: ModuleImporter): Promise<SqliteEngine> {
  const Database = ((await importer('better-sqlite3')) as { default?: BetterSqlite3Constructor }).default;
  if (typeof Database !== 'function') throw new Error('better-sqlite3 has no default export');
  // The native binding is loaded by the first open: prove it loads now, not mid-crawl.
  new Database(':memory:').close();
  return {
    name: 'better-sqlite3',
    open(filename, { readonly }) {
      const db = new Database(filename, readonly ? { readonly: true, fileMustExist: true } : {});
      return {
        all: <Row>(sql: string, bindings: readonly unknown[] = []) =>
          db.prepare(sql).all(...bindings) as Row[],
        exec: (sql) => db.exec(sql),
        close: () => db.close(),
      };
    },
  };
}

interface NodeSqliteModule {
  DatabaseSync?: new (path: string, options?: { readOnly?: boolean }) => SqliteConnection;
}

export async function loadNodeSqlite(importer: ModuleImporter): Promise<SqliteEngine> {
  const { DatabaseSync } = (await importer('node:sqlite')) as NodeSqliteModule;
  if (typeof DatabaseSync !== 'function') throw new Error('node:sqlite has no DatabaseSync');
  const name = 'node:sqlite';
  return {
    name,
    open(filename, { readonly }) {
      const db = new DatabaseSync(filename, readonly ? { readOnly: true } : {});
      return {
        // node:sqlite returns rows with a null prototype: give them plain objects like better-sqlite3.
        all: <Row>(sql: string, bindings: readonly unknown[] = []) =>
          explained(name, () =>
            db
              .prepare(sql)
              .all(...bindings)
              .map((row) => ({ ...(row as object) })),
          ) as Row[],
        exec: (sql) => explained(name, () => db.exec(sql)),
        close: () => db.close(),
      };
    },
  };
}

interface WasmDatabase {
  all(sql: string, values?: unknown[]): unknown[];
  exec(sql: string): void;
  close(): void;
}
interface WasmModule {
  Database?: new (path: string, options?: { readOnly?: boolean; fileMustExist?: boolean }) => WasmDatabase;
}

/**
 * node-sqlite3-wasm: SQLite compiled to WebAssembly (no build, no download), reading and writing pages
 * through Node's fs (`readSync` at an offset: the file is never loaded whole). Its VFS has no shared
 * memory and locks a file by creating the directory `<file>.lock` beside it: hence exclusive locking
 * mode (the only mode in which SQLite reads a WAL file without shared memory; a crawl is one read
 * transaction anyway), the lock taken at open, and the explanations of its lock failures below.
 */
export async function loadNodeSqlite3Wasm(importer: ModuleImporter): Promise<SqliteEngine> {
  const imported = (await importer('node-sqlite3-wasm')) as WasmModule & { default?: WasmModule };
  // A CommonJS module: its exports are the default export of the ESM namespace.
  const Database = imported.Database ?? imported.default?.Database;
  if (typeof Database !== 'function') throw new Error('node-sqlite3-wasm has no Database');
  new Database(':memory:').close();
  const name = 'node-sqlite3-wasm';
  return {
    name,
    open(filename, { readonly }) {
      const db = new Database(filename, readonly ? { readOnly: true } : {});
      try {
        db.exec('PRAGMA locking_mode = EXCLUSIVE');
        // The first read takes the lock, kept until close in exclusive mode: fail here if it cannot.
        db.all('SELECT count(*) FROM sqlite_schema');
      } catch (error) {
        db.close();
        throw wasmLockFailure(filename, error);
      }
      return {
        all: <Row>(sql: string, bindings: readonly unknown[] = []) =>
          explained(name, () => db.all(sql, [...bindings])) as Row[],
        exec: (sql) => explained(name, () => db.exec(sql)),
        close: () => db.close(),
      };
    },
  };
}

/** node-sqlite3-wasm's lock failures, which SQLite reports as "database is locked" or "disk I/O error". */
function wasmLockFailure(filename: string, error: unknown): unknown {
  const message = error instanceof Error ? error.message : '';
  const lock = `${filename}.lock`;
  if (message === 'database is locked' && existsSync(lock)) {
    return new Error(
      `database is locked: node-sqlite3-wasm, the SQLite engine in use, locks a file by creating the ` +
        `directory ${lock}, and it exists: another process reading the file through node-sqlite3-wasm ` +
        `holds it, or one that was killed left it behind (remove it then)`,
      { cause: error },
    );
  }
  if (message === 'disk I/O error' && !writable(dirname(filename))) {
    return new Error(
      `cannot lock the file: node-sqlite3-wasm, the SQLite engine in use, locks a file by creating the ` +
        `directory ${lock}, and ${dirname(filename)} is not writable: copy the file to a writable ` +
        `directory, or read it with better-sqlite3 or on Node.js >= 22.13 (docs/crawler.md, "SQLite engines")`,
      { cause: error },
    );
  }
  return error;
}

function writable(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs one statement; a module the engine was built without (`no such module: rtree`) gets a hint naming
 * the engine and better-sqlite3, which has them all.
 */
function explained<T>(engine: SqliteEngineName, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const missing = error instanceof Error ? /^no such module: (\S+)/.exec(error.message) : null;
    if (missing === null) throw error;
    throw new Error(
      `no such module: ${missing[1]} (the SQLite engine in use, ${engine}, was built without it; ` +
        `better-sqlite3 has ${FULL_ENGINE_MODULES}: install it to read this file, see docs/crawler.md, "SQLite engines")`,
      { cause: error },
    );
  }
}
