// Uniquely named MySQL/MariaDB databases per test file on AIDE_TEST_MYSQL_URL.
import mysql from 'mysql2/promise';
import { uniqueName } from './postgres.js';

export const MYSQL_URL = process.env['AIDE_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/test';

export interface TestMysql {
  /** The unique prefix of this file's databases. */
  prefix: string;
  /** The server URL with `database` as its path. */
  url(database?: string): string;
  exec<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
  /** Drops every database starting with the prefix. */
  drop(): Promise<void>;
}

export async function connectMysql(label: string): Promise<TestMysql> {
  const prefix = uniqueName(label);
  const connection = await mysql.createConnection({
    uri: MYSQL_URL,
    multipleStatements: true,
    charset: 'utf8mb4',
  });
  const exec = async <Row>(sql: string): Promise<Row[]> => {
    const [result] = await connection.query(sql);
    const last = Array.isArray(result) && Array.isArray(result[0]) ? result[result.length - 1] : result;
    return last as Row[];
  };
  return {
    prefix,
    url(database?: string) {
      const url = new URL(MYSQL_URL);
      url.pathname = database === undefined ? '/' : `/${database}`;
      return url.toString();
    },
    exec,
    async drop() {
      const rows = await exec<{ name: string }>(
        `SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '${prefix}%'`,
      );
      // The fixture's databases reference each other: drop them without FK checks, in any order.
      await exec('SET FOREIGN_KEY_CHECKS = 0');
      for (const { name } of rows) await exec(`DROP DATABASE \`${name}\``);
      await connection.end();
    },
  };
}
