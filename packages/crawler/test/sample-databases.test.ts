// The 100 % coverage check of mysql.test.ts and sqlite.test.ts, against any database you point it at —
// the public sample databases (Sakila, employees, world on MySQL/MariaDB; Chinook, Northwind on
// SQLite), which are not in the repository:
//
//   AIDE_TEST_SAMPLE_MYSQL_URLS=mysql://root@127.0.0.1/sakila,mysql://root@127.0.0.1/employees
//   AIDE_TEST_SAMPLE_SQLITE_FILES=/data/chinook.db,/data/northwind.db
//   AIDE_TEST_SAMPLE_PG_URLS=postgresql://postgres@127.0.0.1/pagila,postgresql://postgres@127.0.0.1/dvdrental
//
// Each database is inspected as `aide-crawler inspect` does and compared, table by table, with what
// its own catalog lists (tables and views, columns in order, primary, unique and foreign keys,
// indexes). Without those variables the check runs against a small database built here, so the file
// always runs something.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { inspectDatabase } from '../src/inspect/inspect.js';
import {
  mysqlCatalogShape,
  postgresCatalogShape,
  shapeOf,
  sqliteCatalogShape,
  totals,
} from './helpers/coverage.js';
import { execSqlite } from './helpers/sqlite.js';

const list = (name: string) =>
  (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const mysqlUrls = list('AIDE_TEST_SAMPLE_MYSQL_URLS');
const sqliteFiles = list('AIDE_TEST_SAMPLE_SQLITE_FILES');
const pgUrls = list('AIDE_TEST_SAMPLE_PG_URLS');
const dir = mkdtempSync(join(tmpdir(), 'aide-crawler-samples-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small database in the shape of a sample (used when no sample is given). */
async function builtHere(): Promise<string> {
  const file = join(dir, 'sample.db');
  await execSqlite(
    file,
    `CREATE TABLE "Artist" ("ArtistId" INTEGER PRIMARY KEY, "Name" NVARCHAR(120));
     CREATE TABLE "Album" ("AlbumId" INTEGER PRIMARY KEY, "Title" NVARCHAR(160) NOT NULL,
       "ArtistId" INTEGER NOT NULL REFERENCES "Artist" ("ArtistId"));
     CREATE INDEX "IFK_AlbumArtistId" ON "Album" ("ArtistId");`,
  );
  return file;
}

for (const given of sqliteFiles.length > 0 ? sqliteFiles : [null])
  describe(`SQLite sample ${given ?? '(a small one built here)'}`, () => {
    it('is inspected with 100 % of the tables, columns, keys and indexes its catalog lists', async () => {
      const file = given ?? (await builtHere());
      const inspected = await inspectDatabase({ connectionUrl: `sqlite:///${file}` });
      const catalog = await sqliteCatalogShape(file);
      expect(totals(shapeOf(inspected))).toEqual(totals(catalog));
      expect(shapeOf(inspected)).toEqual(catalog);
      expect(inspected.unmapped_types).toEqual([]);
    });
  });

for (const url of mysqlUrls)
  describe(`MySQL/MariaDB sample ${url}`, () => {
    it('is inspected with 100 % of the tables, columns, keys and indexes its catalog lists', async () => {
      const connection = await mysql.createConnection({ uri: url, charset: 'utf8mb4' });
      try {
        const [[{ name }]] = (await connection.query('SELECT DATABASE() AS name')) as unknown as [
          { name: string }[],
        ];
        const inspected = await inspectDatabase({ connectionUrl: url });
        const catalog = await mysqlCatalogShape(
          async <Row>(sql: string) => {
            const [rows] = await connection.query(sql);
            return rows as Row[];
          },
          name.replace(/[\\_%]/g, '\\$&'),
        );
        expect(totals(shapeOf(inspected))).toEqual(totals(catalog));
        expect(shapeOf(inspected)).toEqual(catalog);
        expect(inspected.unmapped_types).toEqual([]);
      } finally {
        await connection.end();
      }
    });
  });

for (const url of pgUrls)
  describe(`PostgreSQL sample ${url}`, () => {
    it('is inspected with 100 % of the tables, columns, keys and indexes its catalog lists', async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const inspected = await inspectDatabase({ connectionUrl: url });
        const catalog = await postgresCatalogShape(
          async <Row>(sql: string) => (await client.query(sql)).rows as Row[],
        );
        expect(shapeOf(inspected)).toEqual(catalog);
        expect(totals(shapeOf(inspected))).toEqual(totals(catalog));
      } finally {
        await client.end();
      }
    });
  });
