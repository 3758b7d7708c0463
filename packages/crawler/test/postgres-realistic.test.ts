// A realistic PostgreSQL schema (test/fixtures/postgres-realistic.sql) is read completely: every
// table, column and key, checked against what the server's own views report (information_schema
// and pg_indexes as the owner), plus the details a data engineer relies on. A SELECT-only role sees
// the same keys and comments as the owner (information_schema would hide them from it).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inspectDatabase } from '../src/inspect/inspect.js';
import type { InspectedDatabase, InspectedTable } from '../src/model.js';
import { postgresCatalogShape, shapeOf, totals } from './helpers/coverage.js';
import { createPgDatabase, execAdmin, uniqueName, type TestPgDatabase } from './helpers/postgres.js';

let db: TestPgDatabase;
let owner: InspectedDatabase;
const readerRole = uniqueName('reader');
const readerPassword = 'r3ader-Secret';

const SYSTEM = `('pg_catalog', 'information_schema')`;
const key = (schema: string, table: string) => `${schema}.${table}`;
// The per-partition copies PostgreSQL adds for a foreign key to a partitioned table: one constraint.
const CLONES = `SELECT n.nspname, con.conname FROM pg_constraint con
  JOIN pg_namespace n ON n.oid = con.connamespace JOIN pg_class ref ON ref.oid = con.confrelid
  WHERE con.conparentid <> 0 AND ref.relispartition`;

beforeAll(async () => {
  db = await createPgDatabase('realistic');
  await db.exec(readFileSync(new URL('./fixtures/postgres-realistic.sql', import.meta.url), 'utf8'));
  owner = await inspectDatabase({ connectionUrl: db.url });
}, 60_000);

afterAll(async () => {
  await db?.drop();
  await execAdmin(`DROP ROLE IF EXISTS ${readerRole}`);
}, 180_000);

const table = (schema: string, name: string): InspectedTable => {
  const found = owner.tables.find((t) => t.schema === schema && t.name === name);
  if (found === undefined) throw new Error(`${schema}.${name} not inspected`);
  return found;
};

describe('a realistic PostgreSQL schema', () => {
  it('has 100 % of the tables, columns, keys and indexes pg_catalog lists', async () => {
    const catalog = await postgresCatalogShape(<Row>(sql: string) => db.exec<Row>(sql));
    expect(shapeOf(owner)).toEqual(catalog);
    expect(totals(catalog).tables).toBeGreaterThanOrEqual(25);
  });

  it('has every table, view, materialized view and foreign table, partitions only under their parent', async () => {
    const expected = await db.exec<{ schema: string; name: string; kind: string }>(`
      SELECT table_schema AS schema, table_name AS name, table_type AS kind FROM information_schema.tables
      WHERE table_schema NOT IN ${SYSTEM}
        AND (table_schema, table_name) NOT IN (
          SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relispartition)
      UNION ALL SELECT schemaname, matviewname, 'MATERIALIZED VIEW' FROM pg_matviews`);
    expect(expected.length).toBeGreaterThanOrEqual(30);
    expect(owner.tables.map((t) => key(t.schema, t.name)).sort()).toEqual(
      expected.map((t) => key(t.schema, t.name)).sort(),
    );
    expect(owner.schemas).toEqual(['Reporting Ω', 'audit', 'hr', 'inventory', 'public', 'sales']);
    expect(owner.summary.tables).toEqual({
      table: 25,
      partitioned_table: 2,
      view: 2,
      materialized_view: 1,
      foreign_table: 1,
    });
  });

  it('has every column in order, with nullability and defaults as the server reports them', async () => {
    const expected = await db.exec<{
      schema: string;
      table: string;
      name: string;
      nullable: boolean;
      default: string | null;
    }>(`
      SELECT n.nspname AS schema, c.relname AS table, a.attname AS name, NOT a.attnotnull AS nullable,
        CASE WHEN a.attgenerated = '' THEN pg_get_expr(d.adbin, d.adrelid) END AS default
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND n.nspname NOT IN ${SYSTEM}
        AND n.nspname NOT LIKE 'pg_toast%' AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY n.nspname, c.relname, a.attnum`);
    const crossCheck = await db.exec<{ count: string }>(
      `SELECT count(*) FROM information_schema.columns WHERE table_schema NOT IN ${SYSTEM}
         AND (table_schema, table_name) NOT IN (SELECT schemaname, tablename FROM pg_tables t
           JOIN pg_class c ON c.relname = t.tablename AND c.relispartition)`,
    );
    const matviewColumns = table('Reporting Ω', 'stock_by_country').columns.length;
    expect(owner.summary.columns).toBe(Number(crossCheck[0].count) + matviewColumns);
    const actual = owner.tables.flatMap((t) =>
      t.columns.map((c) => ({
        schema: t.schema,
        table: t.name,
        name: c.name,
        nullable: c.nullable,
        default: c.default,
      })),
    );
    const order = (rows: typeof actual) =>
      [...rows].sort((a, b) => key(a.schema, a.table).localeCompare(key(b.schema, b.table)));
    expect(order(actual)).toEqual(order(expected));
    for (const t of owner.tables)
      expect(t.columns.map((c) => c.ordinal)).toEqual(t.columns.map((_, i) => i + 1));
  });

  it('has every primary key, unique and foreign key with its columns in key order', async () => {
    const expected = await db.exec<{
      schema: string;
      table: string;
      name: string;
      type: string;
      columns: string[];
    }>(`
      SELECT tc.table_schema AS schema, tc.table_name AS table, tc.constraint_name AS name,
        tc.constraint_type AS type,
        array_agg(k.column_name::text ORDER BY k.ordinal_position) AS columns
      FROM information_schema.table_constraints tc
      JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name, table_schema, table_name)
      WHERE tc.table_schema NOT IN ${SYSTEM} AND tc.constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')
        AND (tc.constraint_schema, tc.constraint_name) NOT IN (${CLONES})
        AND (tc.table_schema, tc.table_name) NOT IN (SELECT schemaname, tablename FROM pg_tables t
          JOIN pg_class c ON c.relname = t.tablename AND c.relispartition)
      GROUP BY 1, 2, 3, 4`);
    const actual = owner.tables.flatMap((t) => [
      ...(t.primary_key
        ? [
            {
              schema: t.schema,
              table: t.name,
              name: t.primary_key.name,
              type: 'PRIMARY KEY',
              columns: t.primary_key.columns,
            },
          ]
        : []),
      ...t.unique_constraints.map((u) => ({
        schema: t.schema,
        table: t.name,
        name: u.name,
        type: 'UNIQUE',
        columns: u.columns,
      })),
      ...t.foreign_keys.map((f) => ({
        schema: t.schema,
        table: t.name,
        name: f.name,
        type: 'FOREIGN KEY',
        columns: f.columns,
      })),
    ]);
    const sort = (rows: { schema: string; table: string; name: string | null }[]) =>
      [...rows].sort((a, b) =>
        `${a.schema}.${a.table}.${a.name}`.localeCompare(`${b.schema}.${b.table}.${b.name}`),
      );
    expect(expected.length).toBeGreaterThanOrEqual(60);
    expect(sort(actual)).toEqual(sort(expected));
    expect(owner.summary.primary_keys).toBe(expected.filter((e) => e.type === 'PRIMARY KEY').length);
  });

  it('has the referenced table, columns and actions of every foreign key', async () => {
    const expected = await db.exec<{
      name: string;
      ref_schema: string;
      ref_table: string;
      ref_columns: string[];
      update_rule: string;
      delete_rule: string;
    }>(`
      SELECT DISTINCT rc.constraint_name AS name, u.table_schema AS ref_schema, u.table_name AS ref_table,
        (SELECT array_agg(uu.column_name::text ORDER BY kk.ordinal_position)
         FROM information_schema.key_column_usage kk
         JOIN information_schema.key_column_usage uu ON uu.constraint_schema = rc.unique_constraint_schema
           AND uu.constraint_name = rc.unique_constraint_name AND uu.ordinal_position = kk.position_in_unique_constraint
         WHERE kk.constraint_schema = rc.constraint_schema AND kk.constraint_name = rc.constraint_name
           AND kk.table_name::text NOT IN (SELECT relname::text FROM pg_class WHERE relispartition)) AS ref_columns,
        rc.update_rule, rc.delete_rule
      FROM information_schema.referential_constraints rc
      JOIN information_schema.key_column_usage u ON u.constraint_schema = rc.unique_constraint_schema
        AND u.constraint_name = rc.unique_constraint_name
      WHERE rc.constraint_schema NOT IN ${SYSTEM}
        AND (rc.constraint_schema, rc.constraint_name) NOT IN (${CLONES})`);
    const actual = owner.tables.flatMap((t) =>
      t.foreign_keys.map((f) => ({
        name: f.name,
        ref_schema: f.referenced.schema,
        ref_table: f.referenced.table,
        ref_columns: f.referenced.columns,
        update_rule: f.on_update,
        delete_rule: f.on_delete,
      })),
    );
    const sort = (rows: { name: string | null }[]) =>
      [...rows].sort((a, b) => a.name!.localeCompare(b.name!));
    expect(sort(actual)).toEqual(sort(expected));
  });

  it('has every index that does not back a key, and every check constraint', async () => {
    const indexes = await db.exec<{ name: string }>(`
      SELECT i.indexname AS name FROM pg_indexes i
      WHERE i.schemaname NOT IN ${SYSTEM}
        AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conname = i.indexname AND con.contype IN ('p', 'u'))
        AND (i.schemaname, i.tablename) NOT IN (SELECT schemaname, tablename FROM pg_tables t
          JOIN pg_class c ON c.relname = t.tablename AND c.relispartition)`);
    expect(owner.tables.flatMap((t) => t.indexes.map((i) => i.name)).sort()).toEqual(
      indexes.map((i) => i.name).sort(),
    );
    const checks = await db.exec<{ name: string }>(`
      SELECT constraint_name AS name FROM information_schema.table_constraints
      WHERE constraint_type = 'CHECK' AND table_schema NOT IN ${SYSTEM} AND constraint_name NOT LIKE '%_not_null'
        AND (table_schema, table_name) NOT IN (SELECT schemaname, tablename FROM pg_tables t
          JOIN pg_class c ON c.relname = t.tablename AND c.relispartition)`);
    expect(owner.tables.flatMap((t) => t.check_constraints.map((c) => c.name)).sort()).toEqual(
      checks.map((c) => c.name).sort(),
    );
  });

  it('round-trips awkward identifiers exactly', () => {
    const notes = table('sales', 'Order Notes');
    expect(notes.columns.map((c) => c.name)).toEqual([
      'Note Id',
      'Order Id',
      'Order Date',
      'Text',
      'naïve café',
      '日本語',
      'a.b',
      'quote"d',
    ]);
    expect(notes.foreign_keys[0]).toMatchObject({
      columns: ['Order Id', 'Order Date'],
      referenced: { schema: 'sales', table: 'orders', columns: ['order_id', 'order_date'] },
    });
    expect(table('public', 'user').columns.map((c) => c.name)).toEqual([
      'id',
      'select',
      'from',
      'Order',
      'email',
      'created_at',
    ]);
    expect(table('Reporting Ω', 'Monthly Totals').columns.map((c) => c.name)).toEqual([
      'Month',
      'Total (EUR)',
      'Ω',
    ]);
    expect(table('Reporting Ω', 'Monthly Totals').comment).toBe('Σ of orders per month');
  });

  it('reads comments, identity, generated columns, collations, domains and enums', () => {
    const customers = table('sales', 'customers');
    expect(customers.comment).toBe('People and companies that buy');
    const column = (t: InspectedTable, name: string) => t.columns.find((c) => c.name === name)!;
    expect(column(customers, 'Customer Name').comment).toBe('Display name, as typed');
    expect(column(customers, 'customer_id').identity).toBe('by_default');
    expect(column(table('public', 'user'), 'id').identity).toBe('always');
    expect(column(table('hr', 'employees'), 'full_name')).toMatchObject({
      generated: { expression: "((first_name || ' '::text) || last_name)", stored: true },
      default: null,
    });
    expect(column(table('sales', 'orders'), 'notes').collation).toBe('C');
    expect(column(customers, 'email')).toMatchObject({ native_type: 'public.email', domain: 'public.email' });
    expect(column(table('sales', 'orders'), 'status').type).toEqual({
      data_type: 'enum',
      params: {
        name: 'sales.order_status',
        labels: "'new','paid','shipped','cancelled','it''s complicated'",
      },
    });
    expect(column(customers, 'shipping_addresses').type).toMatchObject({
      data_type: 'array',
      children: [{ slot: 'item', type: { data_type: 'composite', params: { name: 'public.address' } } }],
    });
    expect(owner.unmapped_types).toEqual([]);
  });

  it('reads partitions (and sub-partitions) under their root, views and their definitions', () => {
    const orders = table('sales', 'orders');
    expect(orders).toMatchObject({ kind: 'partitioned_table', partition_key: 'RANGE (order_date)' });
    expect(orders.partitions.map((p) => [p.name, p.parent.name, p.kind])).toEqual([
      ['orders_2023', 'orders', 'table'],
      ['orders_2024', 'orders', 'partitioned_table'],
      ['orders_2024_h1', 'orders_2024', 'table'],
      ['orders_2024_h2', 'orders_2024', 'table'],
      ['orders_default', 'orders', 'table'],
    ]);
    expect(orders.partitions[0].bound).toBe("FOR VALUES FROM ('2023-01-01') TO ('2024-01-01')");
    expect(table('audit', 'events').partitions).toHaveLength(2);
    expect(table('sales', 'open_orders')).toMatchObject({ kind: 'view', comment: 'Orders not shipped yet' });
    expect(table('sales', 'open_orders').view_definition).toContain('FROM (sales.orders o');
    expect(table('Reporting Ω', 'stock_by_country')).toMatchObject({ kind: 'materialized_view' });
    expect(table('Reporting Ω', 'stock_by_country').indexes.map((i) => [i.name, i.unique])).toEqual([
      ['stock_by_country_key', true],
    ]);
    expect(table('inventory', 'price_feed')).toMatchObject({
      kind: 'foreign_table',
      comment: 'Nightly supplier prices',
    });
  });

  it('lists partitions as tables too when asked', async () => {
    const withPartitions = await inspectDatabase({
      connectionUrl: db.url,
      filters: { schemas: ['sales'], tables: ['orders*'], include_partitions: true },
    });
    expect(withPartitions.tables.map((t) => [t.name, t.partition_of?.name ?? null])).toEqual([
      ['orders', null],
      ['orders_2023', 'orders'],
      ['orders_2024', 'orders'],
      ['orders_2024_h1', 'orders_2024'],
      ['orders_2024_h2', 'orders_2024'],
      ['orders_default', 'orders'],
    ]);
    expect(withPartitions.tables[1].columns).toHaveLength(6);
  });

  it('reads index details: expressions, methods, INCLUDE columns and predicates', () => {
    const indexes = table('sales', 'customers').indexes;
    expect(indexes.map((i) => i.name)).toEqual([
      'customers_country_idx',
      'customers_lower_email_idx',
      'customers_tags_gin',
    ]);
    expect(indexes[0]).toMatchObject({
      columns: ['country_code'],
      include: ['score'],
      predicate: 'country_code IS NOT NULL',
      method: 'btree',
      expression: null,
    });
    expect(indexes[1]).toMatchObject({ columns: null, expression: 'lower(email::text)' });
    expect(indexes[2]).toMatchObject({ method: 'gin', columns: ['tags'] });
  });

  it('applies schema and table filters in SQL, with globs and quoted names', async () => {
    const filtered = await inspectDatabase({
      connectionUrl: db.url,
      filters: {
        schemas: ['sales', 'Reporting ?', 'h*'],
        exclude_schemas: ['hr'],
        tables: ['sales."Order Notes"', 'c*', '"Monthly Totals"', 'stock_by_country', 'open_orders'],
        exclude_tables: ['sales.open_*'],
      },
    });
    expect(filtered.schemas).toEqual(['Reporting Ω', 'sales']);
    expect(filtered.tables.map((t) => key(t.schema, t.name))).toEqual([
      'Reporting Ω.Monthly Totals',
      'Reporting Ω.stock_by_country',
      'sales.Order Notes',
      'sales.customers',
    ]);
    expect(filtered.summary.catalog_queries).toBe(owner.summary.catalog_queries);
  });

  it('is deterministic', async () => {
    expect(await inspectDatabase({ connectionUrl: db.url })).toEqual(owner);
  });

  it('gives a SELECT-only role the same keys, comments and everything else as the owner', async () => {
    const schemas = owner.schemas.map((s) => `"${s}"`).join(', ');
    await execAdmin(`CREATE ROLE ${readerRole} LOGIN PASSWORD '${readerPassword}'`);
    await db.exec(`
      GRANT CONNECT ON DATABASE ${db.name} TO ${readerRole};
      GRANT USAGE ON SCHEMA ${schemas} TO ${readerRole};
      GRANT SELECT ON ALL TABLES IN SCHEMA ${schemas} TO ${readerRole};`);
    // The trap this avoids: information_schema hides the constraints of tables the role only reads.
    const [hidden] = await db.exec<{ visible: string }>(`
      SET ROLE ${readerRole};
      SELECT count(*) AS visible FROM information_schema.table_constraints
      WHERE constraint_type = 'FOREIGN KEY' AND table_schema NOT IN ${SYSTEM};`);
    await db.exec('RESET ROLE');
    expect(Number(hidden.visible)).toBe(0);

    const reader = await inspectDatabase({ connectionUrl: db.as(readerRole, readerPassword) });
    expect(reader.summary.foreign_keys).toBeGreaterThan(20);
    expect(reader.tables).toEqual(owner.tables);
    expect(JSON.stringify(reader)).not.toContain(readerPassword);
    await db.exec(`REVOKE ALL ON DATABASE ${db.name} FROM ${readerRole}; DROP OWNED BY ${readerRole}`);
  });
});
