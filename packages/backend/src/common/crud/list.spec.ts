// The list layer's `related` filter kind on its own, on real PostgreSQL: a collection (`things`) and a
// link table (`thing_tags`) made for the test, no entity or module of the registry involved.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { FilterTerm } from '@aide/schemas';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../database/data-source.js';
import { quoteIdent, withDatabase } from '../../database/naming.js';
import { withClient } from '../../database/pg-client.js';
import { applyFilters, type FilterRelations } from './list.js';

const serverUrl = process.env['AIDE_TEST_SERVER_URL'] ?? '';
const database = `aide_test_list_${randomBytes(6).toString('hex')}`;
let dataSource: DataSource;

const RELATIONS: FilterRelations = {
  tag: { table: 'thing_tags', rowKey: 'thing_id', column: 'tag' },
  owner_id: { table: 'thing_owners', rowKey: 'thing_id', column: 'owner_id' },
};
const OWNER = '7d0c7a52-8a1b-4c8e-9f3a-1b2c3d4e5f60';

beforeAll(async () => {
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(database)}`));
  dataSource = createDataSource({ url: withDatabase(serverUrl, database), poolSize: 1 });
  await dataSource.initialize();
  await dataSource.query(`CREATE TABLE things (id text PRIMARY KEY, colour text NOT NULL)`);
  await dataSource.query(`CREATE TABLE thing_tags (thing_id text NOT NULL, tag text NOT NULL)`);
  await dataSource.query(`CREATE TABLE thing_owners (thing_id text NOT NULL, owner_id uuid NOT NULL)`);
  await dataSource.query(
    `INSERT INTO things VALUES ('t1', 'red'), ('t2', 'red'), ('t3', 'blue'), ('t4', 'blue')`,
  );
  // t1 is tagged twice over; t4 has no tag at all.
  await dataSource.query(
    `INSERT INTO thing_tags VALUES ('t1', 'a'), ('t1', 'b'), ('t2', 'b'), ('t3', 'c'), ('t3', 'a_%')`,
  );
  await dataSource.query(`INSERT INTO thing_owners VALUES ('t2', $1), ('t3', $1)`, [OWNER]);
});

afterAll(async () => {
  if (dataSource?.isInitialized) await dataSource.destroy();
  await withClient(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`),
  );
});

async function ids(filters: FilterTerm[], relations: FilterRelations = RELATIONS): Promise<string[]> {
  const qb = dataSource.createQueryBuilder().select('t.id', 'id').from('things', 't');
  applyFilters(qb, 't', filters, relations);
  const rows: { id: string }[] = await qb.orderBy('t.id').getRawMany();
  return rows.map((r) => r.id);
}

describe('applyFilters: related filters (a declared link table, not a column)', () => {
  it('keeps the rows linked to the value (eq), each once', async () => {
    expect(await ids([{ field: 'tag', op: 'eq', value: 'a', related: true }])).toEqual(['t1']);
    expect(await ids([{ field: 'tag', op: 'eq', value: 'b', related: true }])).toEqual(['t1', 't2']);
    // The value is bound, never part of the SQL: LIKE characters and quotes are plain text.
    expect(await ids([{ field: 'tag', op: 'eq', value: 'a_%', related: true }])).toEqual(['t3']);
    expect(await ids([{ field: 'tag', op: 'eq', value: "x' OR '1'='1", related: true }])).toEqual([]);
  });

  it('keeps the rows linked to any of the values (in), once however many they match', async () => {
    expect(await ids([{ field: 'tag', op: 'in', value: ['a', 'b'], related: true }])).toEqual(['t1', 't2']);
    expect(await ids([{ field: 'tag', op: 'in', value: ['c', 'zzz'], related: true }])).toEqual(['t3']);
  });

  it('combines with column filters and with another related filter (AND)', async () => {
    const tagB: FilterTerm = { field: 'tag', op: 'eq', value: 'b', related: true };
    expect(await ids([tagB, { field: 'colour', op: 'eq', value: 'red' }])).toEqual(['t1', 't2']);
    expect(await ids([tagB, { field: 'owner_id', op: 'eq', value: OWNER, related: true }])).toEqual(['t2']);
    expect(
      await ids([
        { field: 'owner_id', op: 'in', value: [OWNER], related: true },
        { field: 'colour', op: 'eq', value: 'blue' },
      ]),
    ).toEqual(['t3']);
  });

  it('refuses a related term whose relation the repository does not declare (a programming error)', async () => {
    await expect(ids([{ field: 'tag', op: 'eq', value: 'a', related: true }], {})).rejects.toThrow(
      "No relation is declared for the related filter 'tag'",
    );
  });

  it('reads a term without `related` as a column, whatever relations are declared', async () => {
    await expect(ids([{ field: 'tag', op: 'eq', value: 'a' }])).rejects.toThrow(
      /column t\.tag does not exist/,
    );
  });
});
