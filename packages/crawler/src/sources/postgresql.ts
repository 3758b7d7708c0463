// The PostgreSQL source: a database driver over inspect/postgres.ts (imported when a database is inspected).
import { databaseDriver } from './database.js';

export const postgresqlDriver = databaseDriver(
  'postgresql',
  async () => (await import('../inspect/postgres.js')).inspectPostgres,
);
