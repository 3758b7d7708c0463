// SQLite files for tests, written through the crawler's own SQLite engine (node:sqlite or better-sqlite3).
import { loadSqliteEngine } from '../../src/connection/sqlite-engine.js';

/** Runs `;`-terminated statements (one per line end) against a SQLite file, created when missing. */
export async function execSqlite(path: string, sql: string): Promise<void> {
  const db = (await loadSqliteEngine()).open(path, { readonly: false });
  try {
    db.exec('BEGIN');
    for (const statement of sql.split(/;\s*\n/).filter((s) => s.trim() !== '' && !/^\s*PRAGMA/i.test(s))) {
      db.exec(statement);
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/** Every row of one statement against a SQLite file (opened read-only). */
export async function querySqlite<Row>(path: string, sql: string, bindings: unknown[] = []): Promise<Row[]> {
  const db = (await loadSqliteEngine()).open(path, { readonly: true });
  try {
    return db.all<Row>(sql, bindings);
  } finally {
    db.close();
  }
}
