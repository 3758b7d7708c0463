// The SQLite engine behind the crawler's SQLite catalog (ADR 0038): the optional `better-sqlite3` when
// it is installed and its native binding loads (a full SQLite: FTS5, R*Tree…), else Node's built-in
// `node:sqlite` (Node 22.13+; some builds lack FTS5), loaded only when a SQLite URL is used. Neither is
// needed for PostgreSQL or MySQL crawls, so an install whose `better-sqlite3` could not be built (no
// prebuilt binary nor Node headers reachable) still works for everything else.
import { CrawlerError } from '../errors.js';

/** One open SQLite database: synchronous statements with positional `?` bindings. */
export interface SqliteDatabase {
  /** Every row of one statement. */
  all<Row>(sql: string, bindings?: readonly unknown[]): Row[];
  /** Runs statements that return no rows (several, separated by `;`). */
  exec(sql: string): void;
  close(): void;
}

export interface SqliteEngine {
  readonly name: 'node:sqlite' | 'better-sqlite3';
  /** Opens a file (`:memory:` for a private in-memory database); `readonly` requires the file to exist. */
  open(filename: string, options: { readonly: boolean }): SqliteDatabase;
}

/** Imports a module by specifier; rejects when it is missing or cannot load. Injectable for tests. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

const importModule: ModuleImporter = (specifier) => import(specifier);

/** What to install when no engine loads: named by the error, the docs and the README. */
export const NO_SQLITE_ENGINE_MESSAGE =
  'SQLite support needs Node.js 22.13 or later (built-in node:sqlite) or the better-sqlite3 package, ' +
  'and neither is available here: run on Node.js >= 22.13, or install better-sqlite3 ' +
  '(`npm install better-sqlite3@12`; its install downloads a prebuilt binary, or builds one with ' +
  'node-gyp from Node.js headers: set npm_config_nodedir to a local Node.js install where downloads are blocked)';

interface NodeSqliteModule {
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean },
  ) => {
    prepare(sql: string): { all(...bindings: unknown[]): unknown[] };
    exec(sql: string): void;
    close(): void;
  };
}

type BetterSqlite3Constructor = new (
  path: string,
  options?: { readonly?: boolean; fileMustExist?: boolean },
) => {
  prepare(sql: string): { all(...bindings: unknown[]): unknown[] };
  exec(sql: string): void;
  close(): void;
};

function nodeSqliteEngine(module: NodeSqliteModule): SqliteEngine {
  return {
    name: 'node:sqlite',
    open(filename, { readonly }) {
      const db = new module.DatabaseSync(filename, readonly ? { readOnly: true } : {});
      return {
        // node:sqlite returns rows with a null prototype: give them plain objects like better-sqlite3.
        all: <Row>(sql: string, bindings: readonly unknown[] = []) =>
          db
            .prepare(sql)
            .all(...bindings)
            .map((row) => ({ ...(row as object) })) as Row[],
        exec: (sql) => db.exec(sql),
        close: () => db.close(),
      };
    },
  };
}

function betterSqlite3Engine(Database: BetterSqlite3Constructor): SqliteEngine {
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

const loaded = new Map<ModuleImporter, Promise<SqliteEngine>>();

/**
 * The first SQLite engine that loads: `better-sqlite3` (imported, and its native binding opened, only
 * here), then `node:sqlite`. Loaded once per importer.
 *
 * @throws CrawlerError (exit code 1) naming both options when neither loads.
 */
export function loadSqliteEngine(importer: ModuleImporter = importModule): Promise<SqliteEngine> {
  let engine = loaded.get(importer);
  if (engine === undefined) {
    engine = findEngine(importer);
    loaded.set(importer, engine);
    // A failure is not cached: the next call tries again (and fails with the same message).
    engine.catch(() => loaded.delete(importer));
  }
  return engine;
}

async function findEngine(importer: ModuleImporter): Promise<SqliteEngine> {
  let reason: unknown;
  try {
    const module = (await importer('better-sqlite3')) as { default?: BetterSqlite3Constructor };
    const Database = module.default;
    if (typeof Database !== 'function') throw new Error('better-sqlite3 has no default export');
    // The native binding is loaded by the first open: prove it loads now, not mid-crawl.
    new Database(':memory:').close();
    return betterSqlite3Engine(Database);
  } catch (error) {
    reason = error;
  }
  const builtIn = (await importer('node:sqlite').catch(() => null)) as NodeSqliteModule | null;
  if (builtIn !== null && typeof builtIn.DatabaseSync === 'function') return nodeSqliteEngine(builtIn);
  throw new CrawlerError(NO_SQLITE_ENGINE_MESSAGE, { cause: reason });
}
