// The SQLite source: a database driver over inspect/sqlite.ts (imported when a database is inspected).
import { databaseDriver } from './database.js';

export const sqliteDriver = databaseDriver(
  'sqlite',
  async () => (await import('../inspect/sqlite.js')).inspectSqlite,
);
