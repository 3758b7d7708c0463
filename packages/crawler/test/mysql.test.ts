// MySQL/MariaDB (AIDE_TEST_MYSQL_URL): a realistic schema read completely, one column of every
// built-in type mapped, filters, and a catalog-query count that does not grow with the table count.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inspectDatabase } from '../src/inspect/inspect.js';
import type { InspectedDatabase, InspectedTable } from '../src/model.js';
import { connectMysql, type TestMysql } from './helpers/mysql.js';
import { mysqlCatalogShape, shapeOf, totals } from './helpers/coverage.js';
import { SeedCatalogue } from './helpers/seeds.js';

let my: TestMysql;
let inspected: InspectedDatabase;
let mariadb: boolean;
const seeds = new SeedCatalogue('mysql8');

beforeAll(async () => {
  my = await connectMysql('my');
  const [version] = await my.exec<{ v: string }>('SELECT VERSION() AS v');
  mariadb = /mariadb/i.test(version.v);
  const fixture = readFileSync(new URL('./fixtures/mysql-realistic.sql', import.meta.url), 'utf8');
  await my.exec(fixture.replaceAll('{{p}}', my.prefix));
  inspected = await inspectDatabase({ connectionUrl: my.url(), filters: { schemas: [`${my.prefix}_*`] } });
}, 120_000);

afterAll(async () => {
  await my?.drop();
}, 180_000);

const table = (schema: string, name: string): InspectedTable => {
  const found = inspected.tables.find((t) => t.schema === `${my.prefix}_${schema}` && t.name === name);
  if (found === undefined) throw new Error(`${schema}.${name} not inspected`);
  return found;
};

describe('a realistic MySQL/MariaDB schema', () => {
  it('has 100 % of the tables, columns, keys and indexes information_schema lists', async () => {
    const catalog = await mysqlCatalogShape((sql) => my.exec(sql), `${my.prefix}\\_%`);
    const shape = shapeOf(inspected);
    expect(totals(shape)).toEqual(totals(catalog));
    expect(shape).toEqual(catalog);
    // Dozens of tables in five databases, keys within and across them.
    expect(totals(catalog).tables).toBeGreaterThanOrEqual(30);
    expect(inspected.schemas).toHaveLength(5);
    const crossSchema = inspected.tables.flatMap((t) =>
      t.foreign_keys.filter((f) => f.referenced.schema !== t.schema).map((f) => f.name),
    );
    // Every check constraint but MariaDB's own json_valid() check of a JSON column.
    const [checks] = await my.exec<{ n: number }>(`
      SELECT COUNT(*) AS n FROM information_schema.CHECK_CONSTRAINTS
      WHERE CONSTRAINT_SCHEMA LIKE '${my.prefix}\\_%' AND CHECK_CLAUSE NOT LIKE 'json\\_valid(%'`);
    expect(inspected.summary.check_constraints).toBe(Number(checks.n));
    expect(crossSchema.sort()).toEqual([
      'Order_Customer',
      'employees_store_fk',
      'fk_country_iso',
      'fk_staff_employee',
    ]);
  });

  it('has every table and view of the selected databases, in order', async () => {
    const expected = await my.exec<{ s: string; t: string }>(`
      SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t FROM information_schema.TABLES
      WHERE TABLE_SCHEMA LIKE '${my.prefix}\\_%' ORDER BY 1, 2`);
    expect(inspected.tables.map((t) => `${t.schema}.${t.name}`).sort()).toEqual(
      expected.map((r) => `${r.s}.${r.t}`).sort(),
    );
    expect(inspected.schemas).toEqual(
      ['Reporting Ω', 'employees', 'hr', 'rental', 'shop'].map((s) => `${my.prefix}_${s}`).sort(),
    );
    expect(inspected.summary.tables).toMatchObject({ table: 33, partitioned_table: 2, view: 7 });
  });

  it('has every column, and every key with its columns in order', async () => {
    const [counts] = await my.exec<{ columns: number; keys: number; fks: number }>(`
      SELECT (SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA LIKE '${my.prefix}\\_%') AS columns,
        (SELECT COUNT(*) FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA LIKE '${my.prefix}\\_%'
          AND CONSTRAINT_TYPE IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')) AS \`keys\`,
        (SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA LIKE '${my.prefix}\\_%') AS fks`);
    const s = inspected.summary;
    expect(s.columns).toBe(Number(counts.columns));
    expect(s.primary_keys + s.unique_constraints + s.foreign_keys).toBe(Number(counts.keys));
    expect(s.foreign_keys).toBe(Number(counts.fks));
    expect(table('hr', 'employees').unique_constraints).toEqual([
      { name: 'employees_email_uq', columns: ['email'] },
      { name: 'employees_name_uq', columns: ['last_name', 'first_name'] },
    ]);
    expect(table('hr', 'employees').foreign_keys.find((f) => f.name === 'employees_store_fk')).toEqual({
      name: 'employees_store_fk',
      columns: ['store_id'],
      referenced: { schema: `${my.prefix}_shop`, table: 'stores', columns: ['store_id'] },
      on_update: mariadb ? 'RESTRICT' : 'NO ACTION',
      on_delete: 'SET NULL',
    });
    expect(table('shop', 'order_lines').primary_key).toEqual({
      name: 'PRIMARY',
      columns: ['order_id', 'line_no'],
    });
  });

  it('reads column details: types, defaults, identity, generated, on update, comments, collations', () => {
    const customers = table('shop', 'customers');
    const column = (t: InspectedTable, name: string) => t.columns.find((c) => c.name === name)!;
    expect(customers.comment).toBe('People who buy');
    expect(column(customers, 'customer_id')).toMatchObject({
      native_type: 'int(10) unsigned',
      type: { data_type: 'int_unsigned' },
      identity: 'by_default',
      nullable: false,
    });
    expect(column(customers, 'status')).toMatchObject({
      type: { data_type: 'enum', params: { labels: "'active','blocked','it''s complicated'" } },
      default: mariadb ? "'active'" : 'active',
    });
    expect(column(customers, 'preferences').type).toEqual({ data_type: 'json' });
    expect(column(customers, 'newsletter').type).toEqual({ data_type: 'boolean' });
    expect(column(customers, 'created_at').type).toEqual({ data_type: 'datetime', params: { precision: 3 } });
    expect(column(customers, 'updated_at').on_update).toMatch(/^current_timestamp(\(\))?$/i);
    expect(column(customers, 'email').collation).toBe('utf8mb4_unicode_ci');
    expect(column(table('shop', 'countries'), 'code').comment).toBe('ISO 3166-1 alpha-2');
    const products = table('shop', 'products');
    expect(column(products, 'tags').type).toEqual({
      data_type: 'set',
      params: { labels: "'new','sale','eco'" },
    });
    expect(column(products, 'sku_upper').generated).toMatchObject({ stored: false });
    expect(column(products, 'sku_upper').generated!.expression).toMatch(/(upper|ucase)\(`sku`\)/i);
    expect(column(products, 'price_cents').generated).toMatchObject({ stored: true });
    // MariaDB's own json_valid() check of a JSON column is part of the type, not a check constraint.
    expect(customers.check_constraints).toEqual([]);
    expect(products.check_constraints.map((c) => c.expression)).toEqual([
      expect.stringMatching(/`price` >= 0/),
    ]);
  });

  it('reads indexes (prefix, fulltext, spatial) apart from the keys', () => {
    expect(table('shop', 'customers').indexes).toEqual([
      expect.objectContaining({ name: 'customers_country_idx', columns: ['country_code'], method: 'btree' }),
      expect.objectContaining({ name: 'customers_name_prefix', columns: null, expression: 'Full Name(20)' }),
    ]);
    expect(table('shop', 'products').indexes).toEqual([
      expect.objectContaining({
        name: 'products_text',
        columns: ['name', 'description'],
        method: 'fulltext',
      }),
    ]);
    expect(table('shop', 'stores').indexes[0]).toMatchObject({
      name: 'stores_location_idx',
      method: 'spatial',
    });
  });

  it('reads partitions, views and awkward identifiers', () => {
    const orders = table('shop', 'orders');
    expect(orders.kind).toBe('partitioned_table');
    expect(orders.partition_key).toBe('RANGE (year(`order_date`))');
    expect(orders.partitions.map((p) => [p.name, p.bound])).toEqual([
      ['p2023', 'VALUES LESS THAN (2024)'],
      ['p2024', 'VALUES LESS THAN (2025)'],
      ['pmax', 'VALUES LESS THAN (MAXVALUE)'],
    ]);
    const view = table('shop', 'active_customers');
    expect(view.kind).toBe('view');
    expect(view.view_definition).toMatch(/select .*`customer_id`/i);
    expect(table('Reporting Ω', 'Staff per Store').columns.map((c) => c.name)).toEqual(['store', 'staff']);
    expect(table('shop', 'order notes').columns.map((c) => c.name)).toEqual([
      'Note Id',
      'select',
      'from',
      'naïve café',
      '日本語',
      'a.b',
      'back`tick',
    ]);
    expect(table('Reporting Ω', 'Monthly Totals').comment).toBe('Σ per month');
  });

  it('maps every column type to a mysql8 code its data type accepts', () => {
    expect(inspected.unmapped_types).toEqual([]);
    expect(
      inspected.tables.flatMap((t) =>
        t.columns.flatMap((c) => seeds.problems(c.type!, `${t.name}.${c.name}`)),
      ),
    ).toEqual([]);
    expect(inspected.approximate_types).toEqual([
      { native_type: 'decimal(10,2) unsigned', data_type: 'decimal', columns: 1 },
    ]);
  });

  it('reads only the URL database by default, and applies table filters in SQL', async () => {
    const shop = await inspectDatabase({ connectionUrl: my.url(`${my.prefix}_shop`) });
    expect(shop.schemas).toEqual([`${my.prefix}_shop`]);
    expect(new Set(shop.tables.map((t) => t.schema))).toEqual(new Set([`${my.prefix}_shop`]));
    const filtered = await inspectDatabase({
      connectionUrl: my.url(),
      filters: {
        schemas: [`${my.prefix}_*`],
        tables: ['order*', '*Ω.Monthly*'],
        exclude_tables: ['order_lines'],
      },
    });
    expect(filtered.tables.map((t) => t.name)).toEqual(['Monthly Totals', 'order notes', 'orders']);
    // Names are matched case-sensitively.
    const none = await inspectDatabase({
      connectionUrl: my.url(),
      filters: { schemas: [`${my.prefix}_*`], tables: ['ORDERS'] },
    });
    expect(none.tables).toEqual([]);
  });
});

describe('MySQL/MariaDB built-in types', () => {
  it('maps one column of every type, with params its data type accepts', async () => {
    const db = `${my.prefix}_types`;
    const types = [
      'TINYINT',
      'TINYINT UNSIGNED',
      'SMALLINT',
      'SMALLINT UNSIGNED',
      'MEDIUMINT',
      'MEDIUMINT UNSIGNED',
      'INT',
      'INT UNSIGNED',
      'INTEGER ZEROFILL',
      'BIGINT',
      'BIGINT UNSIGNED',
      'BOOL',
      'BOOLEAN',
      'BIT',
      'BIT(64)',
      'DECIMAL',
      'DECIMAL(65,30)',
      'NUMERIC(10,2)',
      'DEC(5)',
      'FIXED(6,2)',
      'FLOAT',
      'FLOAT(30)',
      'DOUBLE',
      'DOUBLE PRECISION',
      'REAL',
      'DATE',
      'TIME',
      'TIME(6)',
      'DATETIME',
      'DATETIME(6)',
      'TIMESTAMP NULL',
      'TIMESTAMP(3) NULL',
      'YEAR',
      'CHAR',
      'CHAR(255)',
      'NATIONAL CHAR(10)',
      'VARCHAR(1)',
      'NVARCHAR(100)',
      'CHARACTER VARYING(30)',
      'BINARY',
      'BINARY(16)',
      'VARBINARY(300)',
      'TINYTEXT',
      'TEXT',
      'TEXT(100)',
      'MEDIUMTEXT',
      'LONGTEXT',
      'LONG VARCHAR',
      'TINYBLOB',
      'BLOB',
      'MEDIUMBLOB',
      'LONGBLOB',
      "ENUM('a','b')",
      "SET('x','y','z')",
      'JSON',
      'GEOMETRY',
      'POINT',
      'LINESTRING',
      'POLYGON',
      'MULTIPOINT',
      'MULTILINESTRING',
      'MULTIPOLYGON',
      'GEOMETRYCOLLECTION',
      'INT1',
      'INT2',
      'INT3',
      'INT4',
      'INT8',
      'MIDDLEINT',
      'SERIAL',
      ...(mariadb ? ['UUID', 'INET4', 'INET6'] : []),
    ];
    await my.exec(`CREATE DATABASE \`${db}\`;
      CREATE TABLE \`${db}\`.all_types (${types.map((t, i) => `c${i} ${t}`).join(', ')})`);
    const result = await inspectDatabase({ connectionUrl: my.url(db) });
    const columns = result.tables[0].columns;
    expect(columns).toHaveLength(types.length);
    expect(result.unmapped_types).toEqual([]);
    expect(columns.flatMap((c) => seeds.problems(c.type!, `${c.name} ${c.native_type}`))).toEqual([]);
    const byType = Object.fromEntries(columns.map((c, i) => [types[i], c.type]));
    expect(byType['BIGINT UNSIGNED']).toEqual({ data_type: 'bigint_unsigned' });
    expect(byType['BOOL']).toEqual({ data_type: 'boolean' });
    expect(byType['BIT(64)']).toEqual({ data_type: 'bit', params: { length: 64 } });
    expect(byType['DECIMAL(65,30)']).toEqual({ data_type: 'decimal', params: { precision: 65, scale: 30 } });
    expect(byType['REAL']).toEqual({ data_type: 'double' });
    expect(byType['TIME(6)']).toEqual({ data_type: 'time', params: { precision: 6 } });
    expect(byType['VARCHAR(1)']).toEqual({ data_type: 'varchar', params: { length: 1 } });
    expect(byType['SERIAL']).toEqual({ data_type: 'bigint_unsigned' });
    expect(byType["ENUM('a','b')"]).toEqual({ data_type: 'enum', params: { labels: "'a','b'" } });
    expect(byType['JSON']).toEqual({ data_type: 'json' });
    expect(byType['GEOMETRYCOLLECTION']).toEqual({ data_type: 'geometrycollection' });
  });
});

describe('MySQL/MariaDB catalog queries', () => {
  it('are as many for 1,000 tables as for 10', async () => {
    const db = `${my.prefix}_scale`;
    const create = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => {
        const i = from + k;
        const fk = i > 0 ? `, FOREIGN KEY (parent) REFERENCES t${i - 1} (id)` : '';
        return `CREATE TABLE \`${db}\`.t${i} (id INT PRIMARY KEY, code VARCHAR(20) UNIQUE, parent INT,
          amount DECIMAL(10, 2) DEFAULT 0 COMMENT 'amount', KEY (code, amount)${fk}) COMMENT 't${i}'`;
      }).join(';\n');
    const count = async () => {
      let statements = 0;
      const result = await inspectDatabase({
        connectionUrl: my.url(db),
        onStatement: () => statements++,
      });
      return { statements, tables: result.tables.length, keys: result.summary.foreign_keys };
    };
    await my.exec(`CREATE DATABASE \`${db}\`; USE \`${db}\`; ${create(0, 10)}`);
    const small = await count();
    await my.exec(`USE \`${db}\`; ${create(10, 1000)}`);
    const large = await count();
    expect([small.tables, large.tables, large.keys]).toEqual([10, 1000, 999]);
    expect(large.statements).toBe(small.statements);
    expect(small.statements).toBeLessThanOrEqual(10);
  }, 300_000);
});
