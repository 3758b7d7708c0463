// SQLite files: a realistic schema read completely (checked against SQLite's own pragmas), the
// declared types people write mapped with no unmapped type, and a fixed catalog-query count.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inspectDatabase } from '../src/inspect/inspect.js';
import type { InspectedDatabase, InspectedTable } from '../src/model.js';
import { shapeOf, sqliteCatalogShape, totals } from './helpers/coverage.js';
import { SeedCatalogue } from './helpers/seeds.js';
import { execSqlite, querySqlite } from './helpers/sqlite.js';

let dir: string;
let file: string;
let inspected: InspectedDatabase;
const seeds = new SeedCatalogue('sqlite3');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aide-crawler-sqlite-'));
  file = join(dir, 'music.db');
  await execSqlite(file, readFileSync(new URL('./fixtures/sqlite-realistic.sql', import.meta.url), 'utf8'));
  inspected = await inspectDatabase({ connectionUrl: `sqlite:///${file}` });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const table = (name: string): InspectedTable => {
  const found = inspected.tables.find((t) => t.name === name);
  if (found === undefined) throw new Error(`${name} not inspected`);
  return found;
};
const column = (t: string, name: string) => table(t).columns.find((c) => c.name === name)!;

describe('a realistic SQLite schema', () => {
  it("has 100 % of the tables, columns and keys SQLite's own catalog lists", async () => {
    const catalog = await sqliteCatalogShape(file);
    const shape = shapeOf(inspected);
    expect(totals(shape)).toEqual(totals(catalog));
    expect(shape).toEqual(catalog);
    // Dozens of tables, keys between them, the awkward names: the fixture is what the test says.
    expect(totals(catalog)).toMatchObject({ tables: expect.any(Number), views: 4 });
    expect(totals(catalog).tables).toBeGreaterThanOrEqual(35);
    expect(totals(catalog).foreign_keys).toBeGreaterThanOrEqual(30);
  });

  it('has every table and view, in the main schema, with every column', () => {
    expect(inspected).toMatchObject({
      dialect: 'sqlite',
      flavor: 'sqlite3',
      database: 'music.db',
      schemas: ['main'],
    });
    // Sorted by code point (upper case first); the full-text table's shadow tables are tables too.
    expect(inspected.tables.map((t) => t.name)).toEqual([
      'Categories',
      'CustomerCustomerDemo',
      'CustomerDemographics',
      'EmployeeTerritories',
      'Mixed Case Table',
      'Order Details',
      'Order Items',
      'Orders',
      'Orders Qry',
      'Product Sales',
      'Products',
      'Region',
      'Shippers',
      'Straße',
      'Suppliers',
      'Territories',
      'Top Customers',
      'album_tracks',
      'albums',
      'artists',
      'audit_log',
      'customers',
      'employees',
      'genres',
      'group',
      'invoice_lines',
      'invoices',
      'media_types',
      'playlist_tracks',
      'playlists',
      'refunds',
      'settings',
      'strict_values',
      'tags',
      'track_search',
      'track_search_config',
      'track_search_data',
      'track_search_docsize',
      'track_search_idx',
      'track_tags',
      'tracks',
      'user_sessions',
      'users',
    ]);
    expect(inspected.summary.tables).toMatchObject({ table: 39, view: 4 });
    expect(table('Top Customers').columns.map((c) => c.name)).toEqual(['Customer', 'Total']);
    expect(table('Order Items').columns.map((c) => c.name)).toEqual([
      'Item Id',
      'select',
      'from',
      'Bracketed Name',
      'back`tick',
      'naïve café',
      '日本語',
      'a.b',
      'quote"d',
    ]);
  });

  it("has every key, as SQLite's pragmas report them, with the names the DDL gives", async () => {
    const fks = await querySqlite<{ n: number }>(
      file,
      `SELECT count(DISTINCT m.name || '.' || f.id) AS n FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f`,
    );
    const pks = await querySqlite<{ n: number }>(
      file,
      `SELECT count(DISTINCT m.name) AS n FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE p.pk > 0 AND m.type = 'table'`,
    );
    expect(inspected.summary.foreign_keys).toBe(fks[0].n);
    expect(inspected.summary.primary_keys).toBe(pks[0].n);
    expect(table('media_types').primary_key).toEqual({ name: 'pk_media_types', columns: ['media_type_id'] });
    expect(table('invoice_lines').primary_key).toEqual({ name: null, columns: ['invoice_id', 'line_no'] });
    expect(table('artists').unique_constraints).toEqual([{ name: 'artists_name_uq', columns: ['name'] }]);
    expect(table('playlist_tracks').unique_constraints).toEqual([
      { name: 'playlist_position_uq', columns: ['playlist_id', 'position'] },
    ]);
    expect(table('customers').unique_constraints).toEqual([{ name: null, columns: ['email'] }]);
    expect(table('tracks').foreign_keys).toEqual([
      {
        name: 'tracks_media_type_fk',
        columns: ['media_type_id'],
        referenced: { schema: 'main', table: 'media_types', columns: ['media_type_id'] },
        on_update: 'NO ACTION',
        on_delete: 'NO ACTION',
      },
      {
        name: null,
        columns: ['album_id'],
        referenced: { schema: 'main', table: 'albums', columns: ['album_id'] },
        on_update: 'NO ACTION',
        on_delete: 'NO ACTION',
      },
      {
        name: null,
        columns: ['genre_id'],
        referenced: { schema: 'main', table: 'genres', columns: ['genre_id'] },
        on_update: 'CASCADE',
        on_delete: 'SET NULL',
      },
    ]);
    expect(table('refunds').foreign_keys[0]).toMatchObject({
      name: 'refunds_line_fk',
      referenced: { table: 'invoice_lines', columns: ['invoice_id', 'line_no'] },
    });
  });

  it('reads checks, collations, generated columns, defaults and the rowid identity', () => {
    expect(table('tracks').check_constraints).toEqual([
      { name: 'tracks_positive', expression: 'milliseconds > 0' },
    ]);
    expect(table('albums').check_constraints).toEqual([
      { name: null, expression: 'rating BETWEEN 0 AND 10' },
    ]);
    expect(column('artists', 'name')).toMatchObject({
      collation: 'NOCASE',
      native_type: 'NVARCHAR(120)',
      nullable: false,
    });
    expect(column('artists', 'artist_id')).toMatchObject({ identity: 'by_default', nullable: false });
    expect(column('invoice_lines', 'invoice_id').identity).toBeNull();
    expect(column('tracks', 'seconds').generated).toEqual({
      expression: 'milliseconds / 1000.0',
      stored: false,
    });
    expect(column('tracks', 'price_cents').generated).toEqual({
      expression: 'CAST(unit_price * 100 AS INTEGER)',
      stored: true,
    });
    expect(column('tracks', 'unit_price').default).toBe('0.99');
    expect(column('customers', 'created_at').default).toBe('CURRENT_TIMESTAMP');
    expect(column('customers', 'notes')).toMatchObject({ native_type: '', type: { data_type: 'none' } });
  });

  it('reads indexes with expressions and predicates, and view definitions', () => {
    expect(table('albums').indexes).toEqual([
      expect.objectContaining({ name: 'albums_artist_idx', columns: ['artist_id'], unique: false }),
      expect.objectContaining({ name: 'albums_title_lower', columns: null, expression: 'lower(title)' }),
    ]);
    expect(table('tracks').indexes[0]).toMatchObject({
      name: 'tracks_expensive',
      columns: ['unit_price'],
      predicate: 'unit_price > 1',
    });
    expect(table('album_tracks').view_definition).toMatch(/^SELECT a\.title AS album/);
  });

  it('maps the declared types people write, and any other name by its affinity', () => {
    expect(inspected.unmapped_types).toEqual([]);
    expect(
      inspected.tables.flatMap((t) =>
        t.columns.flatMap((c) => seeds.problems(c.type!, `${t.name}.${c.name}`)),
      ),
    ).toEqual([]);
    expect(column('artists', 'name').type).toEqual({ data_type: 'nvarchar', params: { length: 120 } });
    expect(column('albums', 'title').type).toEqual({ data_type: 'varchar', params: { length: 160 } });
    expect(column('albums', 'rating').type).toEqual({
      data_type: 'numeric',
      params: { precision: 3, scale: 1 },
    });
    expect(column('customers', 'active').type).toEqual({ data_type: 'boolean' });
    expect(column('settings', 'updated').type).toEqual({ data_type: 'bigint' });
    expect(column('settings', 'natc').type).toEqual({ data_type: 'nchar', params: { length: 70 } });
    expect(column('settings', 'vc').type).toEqual({ data_type: 'varchar', params: { length: 255 } });
    expect(column('employees', 'salary').type).toEqual({ data_type: 'double' });
    expect(column('strict_values', 'payload').type).toEqual({ data_type: 'any' });
    // Northwind's SQL Server names: by SQLite's affinity rules.
    expect(inspected.approximate_types).toEqual([
      { native_type: 'BIT', data_type: 'numeric', columns: 1 },
      { native_type: 'IMAGE', data_type: 'numeric', columns: 1 },
      { native_type: 'MONEY', data_type: 'numeric', columns: 5 },
      { native_type: 'NTEXT', data_type: 'text', columns: 3 },
      { native_type: 'UUID', data_type: 'numeric', columns: 1 },
    ]);
  });

  it('applies table filters in SQL and keeps the query count', async () => {
    const filtered = await inspectDatabase({
      connectionUrl: `sqlite:///${file}`,
      filters: { tables: ['a*', 'main."Order Items"', '?enres'], exclude_tables: ['album_*', 'audit_*'] },
    });
    expect(filtered.tables.map((t) => t.name)).toEqual(['Order Items', 'albums', 'artists', 'genres']);
    expect(filtered.summary.catalog_queries).toBe(inspected.summary.catalog_queries);
    const otherSchema = await inspectDatabase({
      connectionUrl: `sqlite:///${file}`,
      filters: { schemas: ['temp'] },
    });
    expect(otherSchema).toMatchObject({ schemas: [], tables: [] });
  });
});

describe('SQLite catalog queries', () => {
  it('are as many for 1,000 tables as for 10', async () => {
    const scale = join(dir, 'scale.db');
    const create = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => {
        const i = from + k;
        const fk = i > 0 ? `, parent INTEGER REFERENCES t${i - 1} (id)` : '';
        return `CREATE TABLE t${i} (id INTEGER PRIMARY KEY, code VARCHAR(20) UNIQUE, amount DECIMAL(10,2) DEFAULT 0${fk});\nCREATE INDEX t${i}_amount ON t${i} (amount);\n`;
      }).join('');
    const count = async () => {
      const result = await inspectDatabase({ connectionUrl: `sqlite:///${scale}` });
      const statements = result.summary.catalog_queries;
      return { statements, tables: result.tables.length, indexes: result.summary.indexes };
    };
    await execSqlite(scale, create(0, 10));
    const small = await count();
    await execSqlite(scale, create(10, 1000));
    const large = await count();
    expect([small.tables, large.tables, large.indexes]).toEqual([10, 1000, 1000]);
    expect(large.statements).toBe(small.statements);
  });
});
