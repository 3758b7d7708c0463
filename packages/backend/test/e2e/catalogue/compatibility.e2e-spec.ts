// Compatibility levels (ADR 0048, issue 25), through the API on a real PostgreSQL: every level ×
// every change class on a table (postgres14) and on Avro fields, checked (POST .../check, nothing
// written) and published (409 DATASET_SCHEMA_INCOMPATIBLE with every violation, or 201); transitive
// against non-transitive; a superuser's forced publish kept in the version history; a non-superuser's
// force refused; the registry / system / dataset precedence. The expected verdicts are this file's own
// table of what each direction of reading survives (Schema Registry's meanings), not the registry's
// rule table: a wrong entry there fails here.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  createPgSystem,
  flavorByCode,
  publish,
  type Row,
  seedReference,
  sqlCounter,
} from '../../helpers/catalogue.js';
import { createSystem, ok } from '../../helpers/factories.js';
import { ADMIN, createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Col = Record<string, any>;

let ctx: TestContext;
let pgSystem: Row;
let avroSystem: Row;

const LEVELS = [
  'NONE',
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
] as const;
type Level = (typeof LEVELS)[number];

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  pgSystem = await createPgSystem(ctx);
  avroSystem = await createSystem(ctx, (await flavorByCode(ctx, 'avro')).id);
});
afterAll(async () => {
  await ctx?.close();
});

const admin = () => ({ token: ctx.adminToken });

async function setDatasetLevel(datasetId: string, level: Level | null): Promise<Row> {
  return ok(
    await ctx.request('PUT', `${API}/datasets/${datasetId}/compatibility`, { ...admin(), body: { level } }),
  );
}

function check(datasetId: string, body: Record<string, unknown>, token = ctx.userToken) {
  return ctx.request('POST', `${API}/datasets/${datasetId}/schema-versions/check`, { token, body });
}

async function history(datasetId: string): Promise<Row[]> {
  return ok(
    await ctx.request('GET', `${API}/datasets/${datasetId}/schema-versions`, { token: ctx.userToken }),
  );
}

/** The directions a level checks, in the order violations list them. */
function directionsOf(level: Level): ('backward' | 'forward')[] {
  if (level === 'NONE') return [];
  if (level.startsWith('BACKWARD')) return ['backward'];
  if (level.startsWith('FORWARD')) return ['forward'];
  return ['backward', 'forward'];
}

/** One change of a case: its rule, the column it names, and whether each direction survives it. */
interface ExpectedChange {
  rule: string;
  name: string | null;
  backward: boolean;
  forward: boolean;
}

interface ChangeCase {
  label: string;
  /** The next version, from the base one. */
  next: Record<string, unknown>;
  changes: ExpectedChange[];
}

/** The violations a level finds in a case's changes against version 1, in the API's order. */
function expectedViolations(level: Level, changes: readonly ExpectedChange[]) {
  return changes.flatMap((c) =>
    directionsOf(level)
      .filter((d) => !c[d])
      .map((direction) => ({ version_num: 1, direction, rule: c.rule, name: c.name })),
  );
}

const pick = (violations: Row[]) =>
  violations.map((v) => ({ version_num: v.version_num, direction: v.direction, rule: v.rule, name: v.name }));

// ---------------------------------------------------------------------------------------------------
// A table (postgres14): the base version and one change class per case.

const notNull = (name: string, type: string, params?: Record<string, unknown>, extra = {}) => ({
  ...column(name, type, params, false),
  ...extra,
});

const TABLE_BASE = {
  columns: [
    notNull('id', 'integer'),
    column('name', 'varchar', { length: 50 }),
    notNull('amount', 'integer', undefined, { default: '0' }),
    column('code', 'varchar', { length: 10 }),
    column('note', 'text'),
    column('ref_id', 'integer'),
  ],
  primary_key: { name: 'pk_t', columns: ['id'] },
  unique_constraints: [{ name: 'uq_code', columns: ['code'] }],
  foreign_keys: [
    { name: 'fk_ref', columns: ['ref_id'], referenced: { table: 'other_table', columns: ['id'] } },
  ],
};

/** The base table with its columns mapped (by name) and other attributes replaced. */
function tableNext(
  mapColumns: (columns: Col[]) => unknown[],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...TABLE_BASE, columns: mapColumns(TABLE_BASE.columns), ...overrides };
}
const replaceColumn = (name: string, by: Record<string, unknown>) => (columns: Col[]) =>
  columns.map((c) => (c.name === name ? { ...c, ...by } : c));

const TABLE_CASES: ChangeCase[] = [
  {
    label: 'a column added nullable',
    next: tableNext((cs) => [...cs, column('extra', 'text')]),
    changes: [{ rule: 'COLUMN_ADDED_OPTIONAL', name: 'extra', backward: true, forward: true }],
  },
  {
    label: 'a column added NOT NULL with a default',
    next: tableNext((cs) => [...cs, notNull('extra', 'integer', undefined, { default: '1' })]),
    changes: [{ rule: 'COLUMN_ADDED_OPTIONAL', name: 'extra', backward: true, forward: true }],
  },
  {
    label: 'a column added NOT NULL without a default',
    next: tableNext((cs) => [...cs, notNull('extra', 'integer')]),
    // The new version cannot read old rows (no value); old readers ignore the column.
    changes: [{ rule: 'COLUMN_ADDED_REQUIRED', name: 'extra', backward: false, forward: true }],
  },
  {
    label: 'a column removed',
    next: tableNext((cs) => cs.filter((c) => c.name !== 'note')),
    // Old readers still select it.
    changes: [{ rule: 'COLUMN_REMOVED', name: 'note', backward: true, forward: false }],
  },
  {
    label: 'a column renamed (a removal and an addition)',
    next: tableNext(replaceColumn('note', { name: 'memo' })),
    changes: [
      { rule: 'COLUMN_REMOVED', name: 'note', backward: true, forward: false },
      { rule: 'COLUMN_ADDED_OPTIONAL', name: 'memo', backward: true, forward: true },
    ],
  },
  {
    label: 'a type widened (integer to bigint)',
    next: tableNext(replaceColumn('ref_id', { type: { data_type: 'bigint' } })),
    changes: [{ rule: 'TYPE_WIDENED', name: 'ref_id', backward: true, forward: false }],
  },
  {
    label: 'a type narrowed (varchar(50) to varchar(20))',
    next: tableNext(replaceColumn('name', { type: { data_type: 'varchar', params: { length: 20 } } })),
    changes: [{ rule: 'TYPE_NARROWED', name: 'name', backward: false, forward: true }],
  },
  {
    label: 'a type changed (integer to text)',
    next: tableNext(replaceColumn('ref_id', { type: { data_type: 'text' } })),
    changes: [{ rule: 'TYPE_CHANGED', name: 'ref_id', backward: false, forward: false }],
  },
  {
    label: 'NOT NULL dropped',
    next: tableNext(replaceColumn('amount', { nullable: true })),
    changes: [{ rule: 'NULLABILITY_RELAXED', name: 'amount', backward: true, forward: false }],
  },
  {
    label: 'made NOT NULL',
    next: tableNext(replaceColumn('name', { nullable: false })),
    changes: [{ rule: 'NULLABILITY_TIGHTENED', name: 'name', backward: false, forward: true }],
  },
  {
    label: 'a default changed',
    next: tableNext(replaceColumn('amount', { default: '1' })),
    changes: [{ rule: 'DEFAULT_CHANGED', name: 'amount', backward: true, forward: true }],
  },
  {
    label: 'the default of a NOT NULL column dropped',
    next: tableNext(replaceColumn('amount', { default: null })),
    changes: [{ rule: 'DEFAULT_DROPPED_REQUIRED', name: 'amount', backward: false, forward: true }],
  },
  {
    label: 'the primary key changed',
    next: tableNext((cs) => cs, { primary_key: { name: 'pk_t', columns: ['id', 'amount'] } }),
    changes: [{ rule: 'PRIMARY_KEY_CHANGED', name: 'pk_t', backward: false, forward: false }],
  },
  {
    label: 'a unique constraint added',
    next: tableNext((cs) => cs, {
      unique_constraints: [
        { name: 'uq_code', columns: ['code'] },
        { name: 'uq_name', columns: ['name'] },
      ],
    }),
    changes: [{ rule: 'UNIQUE_ADDED', name: 'uq_name', backward: false, forward: true }],
  },
  {
    label: 'a unique constraint removed',
    next: tableNext((cs) => cs, { unique_constraints: [] }),
    changes: [{ rule: 'UNIQUE_REMOVED', name: 'uq_code', backward: true, forward: false }],
  },
  {
    label: 'a foreign key added',
    next: tableNext((cs) => cs, {
      foreign_keys: [
        ...TABLE_BASE.foreign_keys,
        { name: 'fk_code', columns: ['code'], referenced: { table: 'codes', columns: ['code'] } },
      ],
    }),
    changes: [{ rule: 'FOREIGN_KEY_ADDED', name: 'fk_code', backward: false, forward: true }],
  },
  {
    label: 'a foreign key removed',
    next: tableNext((cs) => cs, { foreign_keys: [] }),
    changes: [{ rule: 'FOREIGN_KEY_REMOVED', name: 'fk_ref', backward: true, forward: false }],
  },
  {
    label: 'a column moved',
    next: tableNext((cs) => {
      const [id, name, amount, code, note, ref] = cs;
      return [id, name, amount, note, code, ref];
    }),
    // Readers by position see another order, both ways.
    changes: [{ rule: 'COLUMN_MOVED', name: 'code', backward: false, forward: false }],
  },
];

// ---------------------------------------------------------------------------------------------------
// Avro fields (the avro flavor): defaults decide additions and removals, int → long is a promotion,
// nullability is a union with null.

const avroField = (name: string, type: string, nullable: boolean, defaultValue: string | null = null) => ({
  name,
  nullable,
  type: { data_type: type },
  default: defaultValue,
});

const AVRO_BASE = {
  columns: [
    avroField('id', 'int', false),
    avroField('name', 'string', false),
    avroField('tag', 'string', true, 'null'),
    avroField('source', 'string', false, '"web"'),
  ],
};
const avroNext = (mapColumns: (columns: Col[]) => unknown[]) => ({
  columns: mapColumns(AVRO_BASE.columns),
});
const replaceField = (name: string, by: Record<string, unknown>) => (columns: Col[]) =>
  columns.map((c) => (c.name === name ? { ...c, ...by } : c));

const AVRO_CASES: ChangeCase[] = [
  {
    label: 'a field added with a default',
    next: avroNext((cs) => [...cs, avroField('channel', 'string', false, '"none"')]),
    changes: [{ rule: 'FIELD_ADDED_WITH_DEFAULT', name: 'channel', backward: true, forward: true }],
  },
  {
    label: 'a field added without a default',
    next: avroNext((cs) => [...cs, avroField('channel', 'string', false)]),
    // The new reader has nothing to fill in old records with.
    changes: [{ rule: 'FIELD_ADDED_WITHOUT_DEFAULT', name: 'channel', backward: false, forward: true }],
  },
  {
    label: 'a field with a default removed',
    next: avroNext((cs) => cs.filter((c) => c.name !== 'source')),
    // Old readers fill it in with their default.
    changes: [{ rule: 'FIELD_REMOVED_WITH_DEFAULT', name: 'source', backward: true, forward: true }],
  },
  {
    label: 'a field without a default removed',
    next: avroNext((cs) => cs.filter((c) => c.name !== 'name')),
    changes: [{ rule: 'FIELD_REMOVED_WITHOUT_DEFAULT', name: 'name', backward: true, forward: false }],
  },
  {
    label: 'int promoted to long',
    next: avroNext(replaceField('id', { type: { data_type: 'long' } })),
    changes: [{ rule: 'TYPE_WIDENED', name: 'id', backward: true, forward: false }],
  },
  {
    label: 'a type changed (int to string)',
    next: avroNext(replaceField('id', { type: { data_type: 'string' } })),
    changes: [{ rule: 'TYPE_CHANGED', name: 'id', backward: false, forward: false }],
  },
  {
    label: 'a field made nullable (a union with null)',
    next: avroNext(replaceField('name', { nullable: true })),
    changes: [{ rule: 'NULLABILITY_RELAXED', name: 'name', backward: true, forward: false }],
  },
  {
    label: 'a field no longer nullable',
    next: avroNext(replaceField('tag', { nullable: false })),
    changes: [{ rule: 'NULLABILITY_TIGHTENED', name: 'tag', backward: false, forward: true }],
  },
  {
    label: 'a field moved (resolved by name)',
    next: avroNext((cs) => {
      const [id, name, tag, source] = cs;
      return [id, tag, name, source];
    }),
    // Of two fields swapped, the one outside the longest kept order is the one moved.
    changes: [{ rule: 'FIELD_MOVED', name: 'name', backward: true, forward: true }],
  },
];

/** A new dataset at version 1 (the base), at the given level. */
async function datasetAt(kind: 'table' | 'avro', level: Level): Promise<string> {
  const dataset =
    kind === 'table'
      ? await createDataset(ctx, pgSystem.id, 'rdbms')
      : await createDataset(ctx, avroSystem.id, 'kafka');
  ok(await publish(ctx, dataset.id, kind === 'table' ? TABLE_BASE : AVRO_BASE), 201);
  await setDatasetLevel(dataset.id, level);
  return dataset.id;
}

/** Every level × every case: the check's verdict, then the publish's. */
function levelMatrix(kind: 'table' | 'avro', cases: readonly ChangeCase[]) {
  describe.each(cases.map((c) => [c.label, c] as const))(`%s`, (_label, c) => {
    it.each(LEVELS.map((l) => [l]))('at %s', async (level) => {
      const datasetId = await datasetAt(kind, level);
      const violations = expectedViolations(level, c.changes);
      const accepted = violations.length === 0;

      // The check: the verdict, the change classified, nothing written.
      const checked = ok(await check(datasetId, c.next));
      expect(pick(checked.violations)).toEqual(violations);
      expect(checked).toMatchObject({
        dataset_id: datasetId,
        level,
        source: 'dataset',
        accepted,
        base_version_num: 1,
        compared_versions: level === 'NONE' ? [] : [1],
      });
      expect(checked.changes.map((ch: Row) => [ch.rule, ch.name])).toEqual(
        c.changes.map((ch) => [ch.rule, ch.name]),
      );
      expect(checked.impact === null).toBe(accepted);
      expect((await history(datasetId)).map((v) => v.version_num)).toEqual([1]);

      // The publish: the same verdict.
      const published = await publish(ctx, datasetId, c.next);
      if (accepted) {
        expect(ok(published, 201).version.version_num).toBe(2);
      } else {
        const error = expectEnvelope(published, 409, 'DATASET_SCHEMA_INCOMPATIBLE');
        expect(pick(error.details.violations)).toEqual(violations);
        expect(error.details).toMatchObject({ accepted: false, level, base_version_num: 1 });
        expect(error.details.impact).toMatchObject({ dataset_id: datasetId, current_version_num: 1 });
        expect((await history(datasetId)).map((v) => v.version_num)).toEqual([1]);
      }
    });
  });
}

describe('every level × every change class of a table', () => {
  levelMatrix('table', TABLE_CASES);
});

describe('every level × every change class of Avro fields', () => {
  levelMatrix('avro', AVRO_CASES);
});

describe('Protobuf and JSON Schema datasets follow their formats’ rules', () => {
  async function kafkaDataset(flavorCode: string, base: Record<string, unknown>, level: Level) {
    const flavor = await flavorByCode(ctx, flavorCode);
    const dataset = await createDataset(ctx, avroSystem.id, 'kafka', { flavor_id: flavor.id });
    ok(await publish(ctx, dataset.id, base), 201);
    await setDatasetLevel(dataset.id, level);
    return dataset.id;
  }
  const field = (name: string, type: string, nullable: boolean) => ({
    name,
    nullable,
    type: { data_type: type },
  });

  it('Protobuf: a field removed or added passes FULL_TRANSITIVE (fields are optional by number)', async () => {
    const id = await kafkaDataset(
      'protobuf',
      { columns: [field('id', 'int64', false), field('name', 'string', true)] },
      'FULL_TRANSITIVE',
    );
    const removed = ok(await check(id, { columns: [field('id', 'int64', false)] }));
    expect(removed).toMatchObject({ accepted: true, violations: [] });
    expect(removed.changes.map((c: Row) => c.rule)).toEqual(['FIELD_REMOVED_OPTIONAL']);
    ok(await publish(ctx, id, { columns: [field('id', 'int64', false)] }), 201);
    const added = ok(
      await check(id, { columns: [field('id', 'int64', false), field('tag', 'string', false)] }),
    );
    expect(added.changes.map((c: Row) => c.rule)).toEqual(['FIELD_ADDED_OPTIONAL']);
    expect(added).toMatchObject({ accepted: true, compared_versions: [2, 1] });
  });

  it('JSON Schema: a required property added fails backward, a required one removed fails forward', async () => {
    const base = { columns: [field('id', 'integer', false), field('note', 'string', true)] };
    const addedRequired = { columns: [...base.columns, field('kind', 'string', false)] };
    const removedRequired = { columns: [field('note', 'string', true)] };
    const backward = await kafkaDataset('json_schema', base, 'BACKWARD');
    expect(pick(ok(await check(backward, addedRequired)).violations)).toEqual([
      { version_num: 1, direction: 'backward', rule: 'FIELD_ADDED_REQUIRED', name: 'kind' },
    ]);
    expect(ok(await check(backward, removedRequired)).accepted).toBe(true);
    const forward = await kafkaDataset('json_schema', base, 'FORWARD');
    expect(ok(await check(forward, addedRequired)).accepted).toBe(true);
    expect(pick(ok(await check(forward, removedRequired)).violations)).toEqual([
      { version_num: 1, direction: 'forward', rule: 'FIELD_REMOVED_REQUIRED', name: 'id' },
    ]);
    expectEnvelope(await publish(ctx, forward, removedRequired), 409, 'DATASET_SCHEMA_INCOMPATIBLE');
  });
});

describe('transitive levels compare every earlier version', () => {
  // v1: f integer; v2: f removed; v3: f text — compatible with v2 (a nullable column added), not
  // with v1 (integer to text).
  const v1 = { columns: [notNull('id', 'integer'), column('f', 'integer')] };
  const v2 = { columns: [notNull('id', 'integer')] };
  const v3 = { columns: [notNull('id', 'integer'), column('f', 'text')] };

  async function historyOfTwo(level: Level): Promise<string> {
    const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
    ok(await publish(ctx, dataset.id, v1), 201);
    ok(await publish(ctx, dataset.id, v2), 201);
    await setDatasetLevel(dataset.id, level);
    return dataset.id;
  }

  it('BACKWARD compares with the latest only and accepts', async () => {
    const id = await historyOfTwo('BACKWARD');
    const checked = ok(await check(id, v3));
    expect(checked).toMatchObject({ accepted: true, compared_versions: [2], violations: [] });
    expect(ok(await publish(ctx, id, v3), 201).version.version_num).toBe(3);
  });

  it('BACKWARD_TRANSITIVE compares with every version and refuses what breaks version 1', async () => {
    const id = await historyOfTwo('BACKWARD_TRANSITIVE');
    const checked = ok(await check(id, v3));
    expect(checked).toMatchObject({ accepted: false, compared_versions: [2, 1] });
    expect(pick(checked.violations)).toEqual([
      { version_num: 1, direction: 'backward', rule: 'TYPE_CHANGED', name: 'f' },
    ]);
    const refused = expectEnvelope(await publish(ctx, id, v3), 409, 'DATASET_SCHEMA_INCOMPATIBLE');
    expect(pick(refused.details.violations)).toEqual(pick(checked.violations));
  });

  it('FULL_TRANSITIVE over a long history with repeated shapes names each version compared', async () => {
    const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
    // Versions alternate between two shapes: 1, 3, 5 are v1; 2, 4 are v2.
    for (const body of [v1, v2, v1, v2, v1]) ok(await publish(ctx, dataset.id, body), 201);
    await setDatasetLevel(dataset.id, 'FULL_TRANSITIVE');
    const checked = ok(await check(dataset.id, v2));
    expect(checked.compared_versions).toEqual([5, 4, 3, 2, 1]);
    // Removing f breaks forward reading against the versions that have it; not against those without.
    expect(pick(checked.violations)).toEqual(
      [5, 3, 1].map((n) => ({ version_num: n, direction: 'forward', rule: 'COLUMN_REMOVED', name: 'f' })),
    );
  });
});

describe('the cost of a transitive check', () => {
  it('reads a history of 4 or 24 versions in the same statements, each structure parsed once', async () => {
    // Each history its own shapes (column names), so that none was parsed by an earlier check.
    const shapesOf = (prefix: string) =>
      [1, 2, 3].map((n) => ({
        columns: [
          notNull('id', 'integer'),
          ...Array.from({ length: n }, (_, i) => column(`${prefix}${i}`, 'text')),
        ],
      }));
    const counter = sqlCounter(ctx);
    let shapes = shapesOf('a');
    const checkOnce = async (datasetId: string) => {
      counter.start();
      // Adds a nullable column to the latest shape: accepted against the versions that have fewer.
      const checked = ok(await check(datasetId, { columns: [...shapes[2].columns, column('more', 'text')] }));
      return { statements: counter.stop().length, checked };
    };
    const statementsOf = async (versions: number, prefix: string) => {
      shapes = shapesOf(prefix);
      const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
      for (let v = 0; v < versions; v++) ok(await publish(ctx, dataset.id, shapes[v % 3]), 201);
      await setDatasetLevel(dataset.id, 'FULL_TRANSITIVE');
      const first = await checkOnce(dataset.id);
      expect(first.checked.compared_versions).toHaveLength(versions);
      // Checked again: the structures were parsed once (a version never changes), their texts not read.
      const again = await checkOnce(dataset.id);
      expect(again.checked).toEqual(first.checked);
      return { statements: first.statements, again: again.statements, accepted: first.checked.accepted };
    };
    const short = await statementsOf(4, 'a');
    const long = await statementsOf(24, 'b');
    expect(long.statements).toBe(short.statements);
    expect(long.again).toBe(short.again);
    expect(long.again).toBe(long.statements - 1);
    expect(long.accepted).toBe(short.accepted);
  });
});

describe('forcing a refused publish', () => {
  const base = { columns: [notNull('id', 'integer'), column('gone', 'text')] };
  const next = { columns: [notNull('id', 'integer')] };

  it('a superuser forces it with a reason, kept in the version history and the version', async () => {
    const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
    ok(await publish(ctx, dataset.id, base), 201);
    await setDatasetLevel(dataset.id, 'FULL');
    const reason = 'column retired, consumers migrated (ticket 42)';
    const forced = ok(await publish(ctx, dataset.id, { ...next, force_reason: reason }, ctx.adminToken), 201);
    const override = {
      reason,
      forced_by: ADMIN.id,
      level: 'FULL',
      violations: [
        {
          version_num: 1,
          direction: 'forward',
          rule: 'COLUMN_REMOVED',
          category: 'column_removed',
          name: 'gone',
          reason: expect.any(String),
        },
      ],
    };
    expect(forced.version.compatibility_override).toEqual(override);
    // The impact of what was overridden, read before the forced version became current.
    expect(forced.impact).toMatchObject({ dataset_id: dataset.id, current_version_num: 1 });
    const [v2, v1] = await history(dataset.id);
    expect(v2.compatibility_override).toEqual(override);
    expect(v1.compatibility_override).toBeNull();
    const read = ok(await ctx.request('GET', `${API}/datasets/${dataset.id}/schema-versions/2`, admin()));
    expect(read.compatibility_override).toEqual(override);
  });

  it('a force_reason on a publish the level accepts is not recorded as an override', async () => {
    const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
    ok(await publish(ctx, dataset.id, base), 201);
    const published = ok(
      await publish(ctx, dataset.id, { ...next, force_reason: 'just in case' }, ctx.adminToken),
      201,
    );
    expect(published.version.compatibility_override).toBeUndefined();
    expect(published.impact).toBeUndefined();
    expect((await history(dataset.id))[0].compatibility_override).toBeNull();
  });

  it('a non-superuser sending force_reason gets 403 FORBIDDEN, violations or not', async () => {
    const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
    ok(await publish(ctx, dataset.id, base), 201);
    await setDatasetLevel(dataset.id, 'FULL');
    expectEnvelope(await publish(ctx, dataset.id, { ...next, force_reason: 'please' }), 403, 'FORBIDDEN');
    await setDatasetLevel(dataset.id, 'NONE');
    expectEnvelope(await publish(ctx, dataset.id, { ...next, force_reason: 'please' }), 403, 'FORBIDDEN');
    expect((await history(dataset.id)).map((v) => v.version_num)).toEqual([1]);
  });

  it('an unchanged publish is never refused, and a first version always accepted', async () => {
    await ctx.request('PUT', `${API}/compatibility`, { ...admin(), body: { level: 'FULL_TRANSITIVE' } });
    try {
      const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
      ok(await publish(ctx, dataset.id, base), 201);
      expect(ok(await publish(ctx, dataset.id, base), 200).created).toBe(false);
      const checked = ok(await check(dataset.id, base));
      expect(checked).toMatchObject({ accepted: true, violations: [], level: 'FULL_TRANSITIVE' });
    } finally {
      await ctx.request('PUT', `${API}/compatibility`, { ...admin(), body: { level: 'NONE' } });
    }
  });
});

describe('levels: registry, system default, dataset', () => {
  it('a dataset applies its own level, else its system default, else the registry level', async () => {
    const system = await createPgSystem(ctx);
    const dataset = await createDataset(ctx, system.id, 'rdbms');
    const get = async () =>
      ok(await ctx.request('GET', `${API}/datasets/${dataset.id}/compatibility`, { token: ctx.userToken }));

    expect(ok(await ctx.request('GET', `${API}/compatibility`, { token: ctx.userToken }))).toEqual({
      level: 'NONE',
    });
    expect(await get()).toEqual({
      dataset_id: dataset.id,
      level: null,
      system_level: null,
      registry_level: 'NONE',
      effective_level: 'NONE',
      source: 'registry',
    });
    try {
      ok(await ctx.request('PUT', `${API}/compatibility`, { ...admin(), body: { level: 'FULL' } }));
      expect(await get()).toMatchObject({ effective_level: 'FULL', source: 'registry' });

      const sys = ok(
        await ctx.request('PUT', `${API}/systems/${system.id}/compatibility`, {
          ...admin(),
          body: { level: 'FORWARD' },
        }),
      );
      expect(sys).toEqual({ system_id: system.id, level: 'FORWARD', effective_level: 'FORWARD' });
      expect(await get()).toMatchObject({
        system_level: 'FORWARD',
        effective_level: 'FORWARD',
        source: 'system',
      });

      await setDatasetLevel(dataset.id, 'BACKWARD');
      expect(await get()).toMatchObject({
        level: 'BACKWARD',
        effective_level: 'BACKWARD',
        source: 'dataset',
      });

      // The level applied is the effective one: removing a column is refused by FORWARD, not BACKWARD.
      const base = { columns: [notNull('id', 'integer'), column('x', 'text')] };
      ok(await publish(ctx, dataset.id, base), 201);
      const without = { columns: [notNull('id', 'integer')] };
      expect(ok(await check(dataset.id, without))).toMatchObject({ accepted: true, level: 'BACKWARD' });
      await setDatasetLevel(dataset.id, null);
      expect(ok(await check(dataset.id, without))).toMatchObject({
        accepted: false,
        level: 'FORWARD',
        source: 'system',
      });
      ok(
        await ctx.request('PUT', `${API}/systems/${system.id}/compatibility`, {
          ...admin(),
          body: { level: null },
        }),
      );
      expect(ok(await check(dataset.id, without))).toMatchObject({
        accepted: false,
        level: 'FULL',
        source: 'registry',
      });
    } finally {
      await ctx.request('PUT', `${API}/compatibility`, { ...admin(), body: { level: 'NONE' } });
    }
  });

  it('a level change is recorded in the dataset audit fields', async () => {
    const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
    await setDatasetLevel(dataset.id, 'FULL');
    const after = ok(await ctx.request('GET', `${API}/datasets/${dataset.id}`, { token: ctx.userToken }));
    expect(after.row_version).toBe(dataset.row_version + 1);
    expect(after.updated_by).toBe(ADMIN.id);
    // Only the compatibility routes set a level: the generic update refuses the key.
    const patched = await ctx.request('PATCH', `${API}/datasets/${dataset.id}`, {
      token: ctx.adminToken,
      body: { kind: 'rdbms', row_version: after.row_version, compatibility: 'NONE' },
    });
    expectEnvelope(patched, 422, 'VALIDATION_ERROR');
  });

  it('only superusers set levels; unknown datasets and systems are 404', async () => {
    const dataset = await createDataset(ctx, pgSystem.id, 'rdbms');
    const body = { level: 'FULL' };
    for (const path of [
      'compatibility',
      `systems/${pgSystem.id}/compatibility`,
      `datasets/${dataset.id}/compatibility`,
    ]) {
      expectEnvelope(
        await ctx.request('PUT', `${API}/${path}`, { token: ctx.userToken, body }),
        403,
        'FORBIDDEN',
      );
    }
    const unknown = '7d2c1f9e-3b4a-4c5d-8e6f-0a1b2c3d4e5f';
    expectEnvelope(
      await ctx.request('PUT', `${API}/datasets/${unknown}/compatibility`, { ...admin(), body }),
      404,
      'DATASET_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('GET', `${API}/systems/${unknown}/compatibility`, { token: ctx.userToken }),
      404,
      'SYSTEM_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('PUT', `${API}/compatibility`, { ...admin(), body: { level: 'SOMETIMES' } }),
      422,
      'VALIDATION_ERROR',
    );
  });
});

describe('bulk', () => {
  it('bulk publish refuses an incompatible item with its violations, the others go on', async () => {
    const base = { columns: [notNull('id', 'integer'), column('x', 'text')] };
    const a = await createDataset(ctx, pgSystem.id, 'rdbms');
    const b = await createDataset(ctx, pgSystem.id, 'rdbms');
    for (const d of [a, b]) {
      ok(await publish(ctx, d.id, base), 201);
      await setDatasetLevel(d.id, 'FORWARD');
    }
    const removed = { columns: [notNull('id', 'integer')] };
    const added = { columns: [...base.columns, column('y', 'text')] };
    const checked = ok(
      await ctx.request('POST', `${API}/schema-versions/check`, {
        token: ctx.userToken,
        body: {
          items: [
            { dataset_id: a.id, ...removed },
            { dataset_id: b.id, ...added },
          ],
        },
      }),
    );
    expect(checked.summary).toEqual({ accepted: 1, refused: 1, failed: 0 });
    expect(pick(checked.items[0].check.violations)).toEqual([
      { version_num: 1, direction: 'forward', rule: 'COLUMN_REMOVED', name: 'x' },
    ]);
    const result = ok(
      await ctx.request('POST', `${API}/schema-versions/bulk`, {
        token: ctx.userToken,
        body: {
          items: [
            { dataset_id: a.id, base_version_num: 1, ...removed },
            { dataset_id: b.id, base_version_num: 1, ...added },
          ],
        },
      }),
    );
    expect(result.items.map((i: Row) => i.status)).toEqual(['failed', 'created']);
    expect(result.items[0].error.error_code).toBe('DATASET_SCHEMA_INCOMPATIBLE');
    expect(pick(result.items[0].error.details.violations)).toEqual(pick(checked.items[0].check.violations));
    expect(result.items[0].error.details.impact).toMatchObject({ dataset_id: a.id });
  });
});
