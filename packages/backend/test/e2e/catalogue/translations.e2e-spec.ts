// GET /datasets/{id}/versions/{n}/translate (issue 25 §2, ADR 0049): a PostgreSQL version cast node by
// node into mysql8, sqlite3 and postgres14 through the seeded cast rules; the report of every lossy cast
// and omission; strict mode; the formats of a flavor; a fixed number of statements per translation.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  createPgSystem,
  publish,
  type Row,
  seedReference,
  sqlCounter,
} from '../../helpers/catalogue.js';
import { ok, UNKNOWN_ID } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let dataset: Row;

/** A PostgreSQL table with a key, a unique key, defaults, comments, an array and a type without a mapping. */
const version = {
  table_comment: "Orders 'as placed'",
  columns: [
    { ...column('id', 'bigint', undefined, false), identity: 'always', comment: 'surrogate key' },
    { ...column('email', 'varchar', { length: 200 }, false), comment: "the buyer's address" },
    { ...column('total', 'numeric', { precision: 12, scale: 2 }, false), default: '0' },
    { ...column('status', 'text', undefined, false), default: "'new'::text" },
    { ...column('placed_at', 'timestamptz', { precision: 3 }, false), default: 'now()' },
    { ...column('paid', 'boolean'), default: 'false' },
    {
      name: 'tags',
      nullable: true,
      type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
      default: "'{}'::text[]",
    },
    { ...column('search', 'tsvector'), generated: "to_tsvector('simple', status)" },
    { ...column('ref', 'uuid'), default: 'gen_random_uuid()' },
  ],
  primary_key: { name: 'orders_pkey', columns: ['id'] },
  unique_constraints: [
    { name: 'orders_email_key', columns: ['email'] },
    { name: 'orders_status_key', columns: ['status'] },
  ],
  foreign_keys: [
    {
      name: 'orders_ref_fk',
      columns: ['ref'],
      referenced: { schema: 'public', table: 'refs', columns: ['id'] },
      on_update: 'NO ACTION',
      on_delete: 'NO ACTION',
    },
  ],
  check_constraints: [{ name: 'orders_total_check', expression: 'total >= 0' }],
};

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  const system = await createPgSystem(ctx);
  dataset = await createDataset(ctx, system.id, 'rdbms', { schema_name: 'shop', table_name: 'orders' });
  ok(await publish(ctx, dataset.id, version), 201);
});
afterAll(async () => {
  await ctx.close();
});

const translate = (query: string, datasetId = dataset.id, num = 1) =>
  ctx.request('GET', `${API}/datasets/${datasetId}/versions/${num}/translate?${query}`, {
    token: ctx.userToken,
  });

const omissionsOf = (body: Row) =>
  (body.omissions as { kind: string; path: string | null }[]).map((o) => `${o.kind}:${o.path}`).sort();

describe('translate a PostgreSQL version', () => {
  it('into mysql8: DDL through the cast rules, every lossy cast and omission beside it', async () => {
    const body = ok(await translate('flavor=mysql8'));
    expect(body).toMatchObject({
      dataset_id: dataset.id,
      version_num: 1,
      source_flavor: 'postgres14',
      target_flavor: 'mysql8',
      format: 'ddl',
      media_type: 'application/sql',
      lossy: true,
    });
    expect(body.content).toBe(
      [
        'CREATE TABLE `orders` (',
        "  `id` bigint NOT NULL COMMENT 'surrogate key',",
        "  `email` varchar(200) NOT NULL COMMENT 'the buyer''s address',",
        '  `total` decimal(12,2) NOT NULL DEFAULT 0,',
        "  `status` longtext NOT NULL DEFAULT ('new'),",
        '  `placed_at` timestamp(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),',
        '  `paid` boolean NULL DEFAULT FALSE,',
        '  `tags` json NULL,',
        '  `search` longtext NULL,',
        '  `ref` uuid NULL,',
        '  PRIMARY KEY (`id`),',
        '  CONSTRAINT `orders_email_key` UNIQUE (`email`)',
        ") COMMENT='Orders ''as placed''';",
        '',
      ].join('\n'),
    );
    // The cast rules' own fidelity and loss, per column.
    expect(body.columns.map((c: Row) => [c.path, c.source_type, c.target_type, c.fidelity])).toEqual([
      ['id', 'bigint', 'bigint', 'exact'],
      ['email', 'varchar(200)', 'varchar(200)', 'exact'],
      ['total', 'numeric(12,2)', 'decimal(12,2)', 'lossy'],
      ['status', 'text', 'longtext', 'exact'],
      ['placed_at', 'timestamp(3) with time zone', 'timestamp(3)', 'lossy'],
      ['paid', 'boolean', 'boolean', 'exact'],
      ['tags', 'text[]', 'json', 'widening'],
      ['search', 'tsvector', 'longtext', 'widening'],
      ['ref', 'uuid', 'uuid', 'exact'],
    ]);
    expect(body.columns[4].loss).toEqual(['precision above 0 when unset']);
    expect(omissionsOf(body)).toEqual(
      [
        'default:id', // identity
        'default:search', // generated
        'default:tags', // an array literal
        'default:ref', // gen_random_uuid()
        'check:orders_total_check',
        'unique:orders_status_key', // longtext cannot be keyed
        'foreign_key:orders_ref_fk',
      ].sort(),
    );
  });

  it('into sqlite3: no comments (omissions), every key', async () => {
    const body = ok(await translate('flavor=sqlite3&format=ddl'));
    expect(body.content).toBe(
      [
        'CREATE TABLE "orders" (',
        '  "id" integer NOT NULL,',
        '  "email" char(200) NOT NULL,',
        '  "total" numeric(12,2) NOT NULL DEFAULT 0,',
        `  "status" text NOT NULL DEFAULT 'new',`,
        '  "placed_at" datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,',
        '  "paid" boolean DEFAULT FALSE,',
        '  "tags" json,',
        '  "search" text,',
        '  "ref" text,',
        '  CONSTRAINT "orders_pkey" PRIMARY KEY ("id"),',
        '  CONSTRAINT "orders_email_key" UNIQUE ("email"),',
        '  CONSTRAINT "orders_status_key" UNIQUE ("status")',
        ');',
        '',
      ].join('\n'),
    );
    expect(omissionsOf(body)).toEqual(
      [
        'default:id',
        'default:search',
        'default:tags',
        'default:ref',
        'check:orders_total_check',
        'comment:id',
        'comment:email',
        'comment:orders',
        'foreign_key:orders_ref_fk',
      ].sort(),
    );
  });

  it('into its own flavor: every type to itself, exact, with COMMENT ON; the DDL runs', async () => {
    const body = ok(await translate('flavor=postgres14'));
    expect(
      body.columns.filter((c: Row) => c.fidelity !== 'exact' || c.target_type !== c.source_type),
    ).toEqual([]);
    // Nested fields after their column: the array's element.
    expect(body.columns.map((c: Row) => c.path).slice(6, 8)).toEqual(['tags', 'tags[]']);
    expect(body.content).toContain('  "tags" text[],\n');
    expect(body.content).toContain(
      '  "placed_at" timestamp(3) with time zone NOT NULL DEFAULT CURRENT_TIMESTAMP,\n',
    );
    expect(body.content).toContain(`COMMENT ON TABLE "orders" IS 'Orders ''as placed''';\n`);
    expect(body.content).toContain(`COMMENT ON COLUMN "orders"."email" IS 'the buyer''s address';\n`);
    await ctx.dataSource.transaction(async (m) => {
      await m.query('CREATE SCHEMA translated_pg');
      await m.query('SET LOCAL search_path = translated_pg');
      await m.query(body.content);
      const rows: { column_name: string; is_nullable: string }[] = await m.query(
        `SELECT column_name, is_nullable FROM information_schema.columns
         WHERE table_schema = 'translated_pg' AND table_name = 'orders' ORDER BY ordinal_position`,
      );
      expect(rows.map((r) => [r.column_name, r.is_nullable === 'YES'])).toEqual(
        version.columns.map((c) => [c.name, c.nullable]),
      );
      await m.query('DROP SCHEMA translated_pg CASCADE');
    });
  });

  it('into avro, json_schema and protobuf: their own format by default, with their media types', async () => {
    const avro = ok(await translate('flavor=avro'));
    expect(avro).toMatchObject({ format: 'avro', media_type: 'application/json' });
    expect(JSON.parse(avro.content)).toMatchObject({ type: 'record', name: 'orders' });
    const jsonSchema = ok(await translate('flavor=json_schema'));
    expect(jsonSchema).toMatchObject({ format: 'json_schema', media_type: 'application/json' });
    expect(JSON.parse(jsonSchema.content)).toMatchObject({ type: 'object' });
    const proto = ok(await translate('flavor=protobuf&format=protobuf'));
    expect(proto).toMatchObject({ format: 'protobuf', media_type: 'text/x-protobuf' });
    expect(proto.content).toContain('message ');
    expectEnvelope(await translate('flavor=avro&format=ddl'), 422, 'TRANSLATION_FORMAT_UNSUPPORTED');
  });

  it('strict: TRANSLATION_LOSSY with the lossy columns and the omissions', async () => {
    const body = expectEnvelope(await translate('flavor=mysql8&strict=true'), 422, 'TRANSLATION_LOSSY');
    expect(body.details.lossy_columns.map((c: Row) => c.path)).toEqual(['total', 'placed_at']);
    expect(body.details.omissions).toHaveLength(7);
    // strict=false answers it.
    expect(ok(await translate('flavor=mysql8&strict=false')).lossy).toBe(true);
  });

  it('a format the flavor is not written in: TRANSLATION_FORMAT_UNSUPPORTED with its formats', async () => {
    const body = expectEnvelope(
      await translate('flavor=mysql8&format=avro'),
      422,
      'TRANSLATION_FORMAT_UNSUPPORTED',
    );
    expect(body.details).toMatchObject({ flavor: 'mysql8', format: 'avro', formats: ['ddl'] });
  });

  it('unknown flavor, version or dataset; a bad query; no credentials', async () => {
    expectEnvelope(await translate('flavor=nope'), 404, 'SYSTEM_FLAVOR_NOT_FOUND');
    expectEnvelope(await translate('flavor=mysql8', dataset.id, 9), 404, 'DATASET_SCHEMA_NOT_FOUND');
    expectEnvelope(await translate('flavor=mysql8', UNKNOWN_ID), 404, 'DATASET_NOT_FOUND');
    expectEnvelope(await translate('flavor=mysql8&format=xml'), 422, 'VALIDATION_ERROR');
    expectEnvelope(await translate(''), 422, 'VALIDATION_ERROR');
    const anonymous = await ctx.request(
      'GET',
      `${API}/datasets/${dataset.id}/versions/1/translate?flavor=mysql8`,
    );
    expect(anonymous.status).toBe(401);
  });

  it('a column without a cast into the target: type null and an omission (and its key), not an error', async () => {
    const system = await createPgSystem(ctx);
    const index = await createDataset(ctx, system.id, 'rdbms', { schema_name: 'x', table_name: 'sigs' });
    ok(
      await publish(ctx, index.id, {
        columns: [column('id', 'integer', undefined, false), column('sig', 'gtsvector', undefined, false)],
        primary_key: { name: null, columns: ['id', 'sig'] },
      }),
      201,
    );
    const body = ok(await translate('flavor=sqlite3', index.id));
    expect(body.columns).toEqual([
      { path: 'id', source_type: 'integer', target_type: 'integer', fidelity: 'widening', loss: [] },
      { path: 'sig', source_type: 'gtsvector', target_type: null, fidelity: null, loss: [] },
    ]);
    expect(body.content).toBe('CREATE TABLE "sigs" (\n  "id" integer NOT NULL\n);\n');
    expect(omissionsOf(body)).toEqual(['column:sig', 'primary_key:id, sig']);
    expect(body.omissions.find((o: Row) => o.kind === 'column').reason).toContain(
      'text-search index storage',
    );
    expect(body.lossy).toBe(true);
  });

  it('reads a version in a fixed number of statements, whatever its size', async () => {
    const system = await createPgSystem(ctx);
    const counts: number[] = [];
    for (const width of [2, 40]) {
      const wide = await createDataset(ctx, system.id, 'rdbms', {
        schema_name: 's',
        table_name: `w${width}`,
      });
      const columns = Array.from({ length: width }, (_, i) =>
        i % 2 === 0
          ? column(`c${i}`, 'varchar', { length: 10 + i })
          : {
              name: `c${i}`,
              nullable: true,
              type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'integer' } }] },
            },
      );
      ok(await publish(ctx, wide.id, { columns }), 201);
      const counter = sqlCounter(ctx);
      counter.start();
      ok(await translate('flavor=mysql8', wide.id));
      counts.push(counter.stop().length);
    }
    expect(counts[1]).toBe(counts[0]);
  });
});
