// The MySQL/MariaDB source: a database driver over inspect/mysql.ts (imported when a database is inspected).
import { databaseDriver } from './database.js';

export const mysqlDriver = databaseDriver(
  'mysql',
  async () => (await import('../inspect/mysql.js')).inspectMysql,
);
