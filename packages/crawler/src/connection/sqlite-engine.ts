// The SQLite engine behind the crawler's SQLite catalog (ADR 0038, ADR 0040), loaded only when a SQLite
// URL is used, first of:
//   1. better-sqlite3, optional: a native addon with a full SQLite (FTS3/4/5, R*Tree…), when its install
//      could download a prebuilt binary or build one;
//   2. node:sqlite, built into Node.js 22.13+ (some builds lack FTS5);
//   3. node-sqlite3-wasm, a WebAssembly SQLite that always installs (FTS5 but no FTS3/4 nor R*Tree; it
//      locks with a `<file>.lock` directory that other SQLite processes do not see).
// The native and built-in engines come first because they lock files as every other SQLite process does.
// AIDE_CRAWLER_SQLITE_ENGINE names one engine to use instead (and fails when that one does not load).
import { CrawlerError } from '../errors.js';
import {
  loadBetterSqlite3,
  loadNodeSqlite,
  loadNodeSqlite3Wasm,
  type ModuleImporter,
  type SqliteEngine,
  type SqliteEngineName,
} from './sqlite-engine-adapters.js';

export type {
  ModuleImporter,
  SqliteDatabase,
  SqliteEngine,
  SqliteEngineName,
} from './sqlite-engine-adapters.js';

/** The engines in the order they are tried. */
export const SQLITE_ENGINES: ReadonlyArray<{
  readonly name: SqliteEngineName;
  readonly load: (importer: ModuleImporter) => Promise<SqliteEngine>;
}> = [
  { name: 'better-sqlite3', load: loadBetterSqlite3 },
  { name: 'node:sqlite', load: loadNodeSqlite },
  { name: 'node-sqlite3-wasm', load: loadNodeSqlite3Wasm },
];

/** The environment variable that names one engine to use. */
export const SQLITE_ENGINE_VARIABLE = 'AIDE_CRAWLER_SQLITE_ENGINE';

const importModule: ModuleImporter = (specifier) => import(specifier);

/** Said when no engine loads: node-sqlite3-wasm is a dependency, so only a broken install gets here. */
export const NO_SQLITE_ENGINE_MESSAGE =
  'no SQLite engine loads: better-sqlite3 (optional), node:sqlite (Node.js >= 22.13) and ' +
  'node-sqlite3-wasm (a dependency of the crawler) are all missing or failed to load: reinstall the ' +
  'crawler (`npm install @aide/crawler`, or `pnpm install` in the repository)';

/** Per importer, per name ('' for the first that loads). */
const loaded = new Map<ModuleImporter, Map<string, Promise<SqliteEngine>>>();

/**
 * The SQLite engine to use: the one named by `only` (default: AIDE_CRAWLER_SQLITE_ENGINE), or with none
 * (null, or the variable unset) the first of {@link SQLITE_ENGINES} that loads. Loaded once per importer
 * and name; a failure is not cached.
 *
 * @throws CrawlerError (exit code 1) when none loads, or the named one does not, or the name is unknown.
 */
export function loadSqliteEngine(
  importer: ModuleImporter = importModule,
  only: string | null = process.env[SQLITE_ENGINE_VARIABLE] || null,
): Promise<SqliteEngine> {
  const byName = loaded.get(importer) ?? new Map<string, Promise<SqliteEngine>>();
  loaded.set(importer, byName);
  const key = only ?? '';
  let engine = byName.get(key);
  if (engine === undefined) {
    engine = only === null ? firstEngine(importer) : namedEngine(importer, only);
    byName.set(key, engine);
    engine.catch(() => byName.delete(key));
  }
  return engine;
}

async function firstEngine(importer: ModuleImporter): Promise<SqliteEngine> {
  const reasons: unknown[] = [];
  for (const { load } of SQLITE_ENGINES) {
    try {
      return await load(importer);
    } catch (error) {
      reasons.push(error);
    }
  }
  throw new CrawlerError(NO_SQLITE_ENGINE_MESSAGE, { cause: new AggregateError(reasons) });
}

async function namedEngine(importer: ModuleImporter, name: string): Promise<SqliteEngine> {
  const engine = SQLITE_ENGINES.find((candidate) => candidate.name === name);
  if (engine === undefined) {
    const names = SQLITE_ENGINES.map((candidate) => candidate.name).join(', ');
    throw new CrawlerError(`${SQLITE_ENGINE_VARIABLE}=${name} names no SQLite engine: use one of ${names}`);
  }
  try {
    return await engine.load(importer);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new CrawlerError(
      `${SQLITE_ENGINE_VARIABLE}=${name}, but ${name} does not load here: ${reason}` +
        (name === 'better-sqlite3' ? ' (see docs/crawler.md, "SQLite engines", to build it)' : ''),
      { cause: error },
    );
  }
}

/** Every engine that loads here, in order: for tests that run the same checks on each. */
export async function availableSqliteEngines(
  importer: ModuleImporter = importModule,
): Promise<SqliteEngine[]> {
  const engines: SqliteEngine[] = [];
  for (const { load } of SQLITE_ENGINES) {
    const engine = await load(importer).catch(() => null);
    if (engine !== null) engines.push(engine);
  }
  return engines;
}
