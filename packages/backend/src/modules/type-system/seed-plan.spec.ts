import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { jsonEqual } from './json-equal.js';
import {
  DEFAULT_SEEDS_DIR,
  loadCastSeedFile,
  loadSeedFile,
  type CastSeedFile,
  type SeedFile,
} from './seed-file.js';
import {
  planCastSeed,
  planKindSeed,
  planSeed,
  type ExistingCastRuleRow,
  type ExistingSeedState,
} from './seed-plan.js';

const shipped = await loadSeedFile(join(DEFAULT_SEEDS_DIR, 'postgres14.yaml'));
// The original's inline kind `{code, name}`, which a data-type file then seeds too.
const postgres: SeedFile = { ...shipped, kind: { code: 'rdbms', name: 'Relational Database' } };
const casts = await loadCastSeedFile(join(DEFAULT_SEEDS_DIR, 'casts', 'postgres14-to-iceberg_v2.yaml'));

/** The stored rows a previous run of `file` left behind (params_schema keys reordered, as jsonb does). */
function storedState(file: SeedFile): ExistingSeedState {
  return {
    kinds: [{ id: 'k1', code: file.kind.code, name: file.kind.name ?? '', deleted: false }],
    flavors: [{ id: 'f1', ...file.flavor, kind_code: file.kind.code, deleted: false }],
    dataTypes: file.types.map((type, index) => ({
      id: `t${index}`,
      flavor_code: file.flavor.code,
      code: type.code,
      params_schema: reversedKeys(type.params_schema),
      render_template: type.render_template,
      description: type.description ?? null,
      deleted: false,
    })),
  };
}

function reversedKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversedKeys(item)]),
  );
}

describe('planSeed', () => {
  it('reports an empty database as all inserted', () => {
    const plan = planSeed({ kinds: [], flavors: [], dataTypes: [] }, postgres);
    expect(plan.summary).toBe('+91 ~0 =0 restored 0');
    expect(plan.inserted[0]).toEqual({
      entity: 'kind',
      key: 'rdbms',
      values: { code: 'rdbms', name: 'Relational Database' },
      changed: [],
    });
    expect(plan.inserted[1]?.values).toEqual({ ...postgres.flavor, kind_code: 'rdbms' });
  });

  it('leaves a kind named by code only to its kind file', () => {
    expect(shipped.kind).toEqual({ code: 'rdbms' });
    const plan = planSeed({ kinds: [], flavors: [], dataTypes: [] }, shipped);
    expect(plan.summary).toBe('+90 ~0 =0 restored 0');
    expect(plan.inserted.some((change) => change.entity === 'kind')).toBe(false);
  });

  it('plans a kind file by code: inserts, renames and restores', () => {
    const plan = planKindSeed(
      [
        { id: 'k1', code: 'rdbms', name: 'Old name', deleted: false },
        { id: 'k2', code: 'hive', name: 'Hive Metastore Lake', deleted: true },
        { id: 'k3', code: 'kafka', name: 'Kafka', deleted: false },
      ],
      {
        kinds: [
          { code: 'rdbms', name: 'Relational Database' },
          { code: 'hive', name: 'Hive Metastore Lake' },
          { code: 'kafka', name: 'Kafka' },
          { code: 'sftp', name: 'SFTP' },
        ],
      },
    );
    expect(plan.summary).toBe('+1 ~1 =1 restored 1');
    expect(plan.updated.map((c) => [c.key, c.changed])).toEqual([['rdbms', ['name']]]);
    expect(plan.restored.map((c) => c.existingId)).toEqual(['k2']);
    expect(plan.inserted.map((c) => c.key)).toEqual(['sftp']);
  });

  it('reports an identical state as all unchanged', () => {
    const plan = planSeed(storedState(postgres), postgres);
    expect(plan.summary).toBe('+0 ~0 =91 restored 0');
    expect(plan.inserted).toEqual([]);
    expect(plan.updated).toEqual([]);
    expect(plan.restored).toEqual([]);
    expect(plan.unchanged.map((change) => change.existingId)).toEqual([
      'k1',
      'f1',
      ...postgres.types.map((_, i) => `t${i}`),
    ]);
  });

  it('finds inserts, updates and restores, and never deletes', () => {
    const state = storedState(postgres);
    const dataTypes = state.dataTypes
      .filter((row) => row.code !== 'uuid')
      .map((row) => {
        if (row.code === 'varchar') {
          return { ...row, render_template: 'varchar({{ length }})' };
        }
        if (row.code === 'money') {
          return { ...row, deleted: true };
        }
        return row;
      });
    dataTypes.push({ ...dataTypes[0], id: 'extra', code: 'hand_made' });
    const plan = planSeed(
      {
        kinds: [{ ...state.kinds[0], deleted: true }],
        flavors: [{ ...state.flavors[0], versions: null, vendor: 'Someone' }],
        dataTypes,
      },
      postgres,
    );
    expect(plan.summary).toBe('+1 ~2 =86 restored 2');
    expect(plan.inserted.map((change) => change.key)).toEqual(['postgres14.uuid']);
    expect(plan.updated.map((change) => [change.key, change.changed])).toEqual([
      ['postgres14', ['vendor', 'versions']],
      ['postgres14.varchar', ['render_template']],
    ]);
    expect(plan.restored.map((change) => [change.key, change.existingId])).toEqual([
      ['rdbms', 'k1'],
      ['postgres14.money', `t${postgres.types.findIndex((type) => type.code === 'money')}`],
    ]);
    const planned = [...plan.inserted, ...plan.updated, ...plan.unchanged, ...plan.restored].map(
      (change) => change.key,
    );
    expect(planned).not.toContain('postgres14.hand_made');
  });

  it('restores with the file values and reports what differed', () => {
    const state = storedState(postgres);
    const plan = planSeed(
      {
        ...state,
        dataTypes: state.dataTypes.map((row) =>
          row.code === 'text' ? { ...row, deleted: true, render_template: 'TEXT' } : row,
        ),
      },
      postgres,
    );
    expect(plan.restored).toEqual([
      expect.objectContaining({
        key: 'postgres14.text',
        changed: ['render_template'],
        values: expect.objectContaining({ render_template: 'text' }),
      }),
    ]);
  });

  it('prefers the active row when deleted duplicates exist', () => {
    const state = storedState(postgres);
    const integer = state.dataTypes.find((row) => row.code === 'integer')!;
    const plan = planSeed(
      { ...state, dataTypes: [{ ...integer, id: 'old', deleted: true }, ...state.dataTypes] },
      postgres,
    );
    expect(plan.summary).toBe('+0 ~0 =91 restored 0');
  });

  it('compares descriptions only when the file sets them', () => {
    const withoutDescriptions: SeedFile = {
      ...postgres,
      types: postgres.types.map(({ description: _description, ...type }) => type),
    };
    const state = storedState(postgres);
    expect(planSeed(state, withoutDescriptions).summary).toBe('+0 ~0 =91 restored 0');
    const edited = { ...state, dataTypes: state.dataTypes.map((row) => ({ ...row, description: 'edited' })) };
    expect(planSeed(edited, withoutDescriptions).summary).toBe('+0 ~0 =91 restored 0');
    expect(planSeed(edited, postgres).updated.length).toBe(
      postgres.types.filter((type) => type.description).length,
    );
  });

  it('moves a flavor to another kind as an update', () => {
    const state = storedState(postgres);
    const plan = planSeed({ ...state, flavors: [{ ...state.flavors[0], kind_code: 'other' }] }, postgres);
    expect(plan.updated.map((change) => [change.key, change.changed])).toEqual([['postgres14', ['kind']]]);
  });
});

describe('planCastSeed', () => {
  const stored = (file: CastSeedFile): ExistingCastRuleRow[] =>
    file.mappings.map((rule, index) => ({
      id: `c${index}`,
      ...rule,
      param_mapping: { ...rule.param_mapping },
    }));

  it('reports an identical state as all unchanged', () => {
    const plan = planCastSeed(stored(casts), casts);
    expect(plan.summary).toBe(`cast rules: +0 ~0 =${casts.mappings.length}`);
  });

  it('finds inserts and updates of safety and param_mapping', () => {
    const rows = stored(casts)
      .slice(1)
      .map((row) =>
        row.source.code === 'numeric'
          ? { ...row, param_mapping: { precision: '@precision' } }
          : row.source.code === 'json'
            ? { ...row, safety: 'safe' as const }
            : row,
      );
    const plan = planCastSeed(rows, casts);
    expect(plan.summary).toBe(`cast rules: +1 ~2 =${casts.mappings.length - 3}`);
    expect(plan.updated.map((change) => [change.values.source.code, change.changed])).toEqual([
      ['numeric', ['param_mapping']],
      ['json', ['safety']],
    ]);
  });
});

describe('jsonEqual', () => {
  it('ignores key order and undefined members, not array order', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: null }, {})).toBe(false);
    expect(jsonEqual(1, '1')).toBe(false);
  });
});
