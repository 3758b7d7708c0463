// The diff on real MariaDB and SQLite databases: the categories each dialect expresses in its own DDL,
// with their classes (the PostgreSQL test covers every category).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DatasetDiff } from '../src/diff/diff.js';
import { inspectDatabase } from '../src/inspect/inspect.js';
import { change, datasetDiff, diffInspections } from './helpers/diff.js';
import { connectMysql, type TestMysql } from './helpers/mysql.js';
import { execSqlite } from './helpers/sqlite.js';

describe('the diff of a changed MariaDB schema', () => {
  let mysql: TestMysql;
  let diffs: DatasetDiff[];
  let schema: string;

  beforeAll(async () => {
    mysql = await connectMysql('diff');
    schema = `${mysql.prefix}_shop`;
    await mysql.exec(`CREATE DATABASE \`${schema}\`; USE \`${schema}\`;
      CREATE TABLE items (id int PRIMARY KEY, qty smallint NOT NULL, sku varchar(20), size enum('s','m'),
        price decimal(8,2), flag tinyint(1), legacy text, note varchar(10) DEFAULT 'x');
      CREATE TABLE tags (id int PRIMARY KEY, name varchar(30), KEY tags_name_idx (name));`);
    const url = mysql.url(schema);
    const before = await inspectDatabase({ connectionUrl: url });
    await mysql.exec(`USE \`${schema}\`;
      ALTER TABLE items MODIFY qty int NOT NULL, MODIFY sku varchar(10), MODIFY size enum('s','m','l'),
        MODIFY price decimal(10,2), MODIFY flag tinyint(1) NOT NULL, DROP COLUMN legacy,
        ADD COLUMN created_at datetime NULL, MODIFY note varchar(10) DEFAULT 'y',
        ADD CONSTRAINT items_sku_uq UNIQUE (sku);
      ALTER TABLE tags DROP INDEX tags_name_idx, ADD COLUMN item_id int,
        ADD CONSTRAINT tags_item_fk FOREIGN KEY (item_id) REFERENCES items (id) ON DELETE CASCADE;`);
    const after = await inspectDatabase({ connectionUrl: url });
    diffs = diffInspections(before, after);
  });

  afterAll(async () => {
    await mysql?.drop();
  });

  it('classes widening and narrowing type changes', () => {
    const items = datasetDiff(diffs, schema, 'items');
    expect(change(items, 'type_changed', 'qty').compatibility).toBe('compatible');
    expect(change(items, 'type_changed', 'size').compatibility).toBe('compatible');
    expect(change(items, 'type_changed', 'price').compatibility).toBe('compatible');
    expect(change(items, 'type_changed', 'sku')).toMatchObject({
      before: { native_type: 'varchar(20)' },
      after: { native_type: 'varchar(10)' },
      compatibility: 'breaking',
    });
  });

  it('classes columns, nullability, defaults and keys', () => {
    const items = datasetDiff(diffs, schema, 'items');
    expect(change(items, 'column_removed', 'legacy').compatibility).toBe('breaking');
    expect(change(items, 'column_added', 'created_at').compatibility).toBe('compatible');
    expect(change(items, 'nullability_changed', 'flag').compatibility).toBe('breaking');
    expect(change(items, 'default_changed', 'note')).toMatchObject({ compatibility: 'compatible' });
    expect(change(items, 'unique_added', 'items_sku_uq').compatibility).toBe('breaking');
    const tags = datasetDiff(diffs, schema, 'tags');
    expect(change(tags, 'foreign_key_added', 'tags_item_fk').compatibility).toBe('breaking');
    expect(change(tags, 'index_removed', 'tags_name_idx').compatibility).toBe('compatible');
  });
});

describe('the diff of a changed SQLite file', () => {
  let dir: string;
  let diffs: DatasetDiff[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aide-crawler-diff-'));
    const file = join(dir, 'app.db');
    const exec = (sql: string) => execSqlite(file, sql);
    await exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL, age INT, bio TEXT);
      CREATE TABLE old_logs (id INTEGER);
      CREATE VIEW adults AS SELECT id FROM users WHERE age >= 18;
`);
    const url = `sqlite:///${file}`;
    const before = await inspectDatabase({ connectionUrl: url });
    // SQLite alters little: rebuild the table, as its documentation recommends.
    await exec(`CREATE TABLE users_new (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL, age BIGINT,
        email TEXT UNIQUE, bio TEXT NOT NULL DEFAULT '');
      DROP VIEW adults;
      DROP TABLE users;
      ALTER TABLE users_new RENAME TO users;
      CREATE VIEW adults AS SELECT id, name FROM users WHERE age >= 18;
      DROP TABLE old_logs;
      CREATE TABLE audit (at DATETIME);
`);
    const after = await inspectDatabase({ connectionUrl: url });
    diffs = diffInspections(before, after);
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports new, removed and changed tables with their classes', () => {
    expect(datasetDiff(diffs, 'main', 'audit').status).toBe('new');
    expect(datasetDiff(diffs, 'main', 'old_logs').status).toBe('removed');
    const users = datasetDiff(diffs, 'main', 'users');
    expect(change(users, 'type_changed', 'name').compatibility).toBe('compatible');
    expect(change(users, 'type_changed', 'age').compatibility).toBe('compatible');
    expect(change(users, 'column_added', 'email').compatibility).toBe('compatible');
    expect(change(users, 'nullability_changed', 'bio').compatibility).toBe('breaking');
    expect(change(users, 'unique_added').compatibility).toBe('breaking');
    const adults = datasetDiff(diffs, 'main', 'adults');
    expect(change(adults, 'view_definition_changed').compatibility).toBe('compatible');
    expect(change(adults, 'column_added', 'name').compatibility).toBe('compatible');
  });
});
