// The compatibility levels (ADR 0048) over the one classifier: each situation gets its rule, each rule
// its verdict per direction, and each level refuses exactly the directions it asks for. Expectations
// are written out here, not read from the rule table, so a wrong table entry fails.
import { describe, expect, it } from '@jest/globals';
import { classifyChanges } from './classify.js';
import type { ComparableColumn, ComparableVersion } from './comparable.js';
import {
  COMPATIBILITY_LEVELS,
  COMPATIBILITY_RULES,
  isTransitive,
  levelDirections,
  violationsOf,
} from './compatibility-rules.js';

const column = (name: string, over: Partial<ComparableColumn> = {}): ComparableColumn => ({
  name,
  nullable: false,
  type: { data_type: 'integer' },
  native_type: null,
  default: null,
  comment: null,
  identity: null,
  generated: null,
  collation: null,
  ...over,
});
const version = (
  columns: readonly ComparableColumn[],
  over: Partial<ComparableVersion> = {},
): ComparableVersion => ({
  table_kind: 'table',
  table_comment: null,
  view_definition: null,
  columns,
  primary_key: null,
  unique_constraints: [],
  foreign_keys: [],
  indexes: [],
  check_constraints: [],
  ...over,
});

const id = column('id');
const base = version([
  id,
  column('amount'),
  column('note', { nullable: true, type: { data_type: 'varchar', params: { length: 50 } } }),
]);

/** [situation, flavor, new version, expected rule, backward, forward] */
const CASES: [string, string | null, ComparableVersion, string, boolean, boolean][] = [
  [
    'added nullable',
    null,
    version([...base.columns, column('x', { nullable: true })]),
    'COLUMN_ADDED_OPTIONAL',
    true,
    true,
  ],
  [
    'added with default',
    null,
    version([...base.columns, column('x', { default: '0' })]),
    'COLUMN_ADDED_OPTIONAL',
    true,
    true,
  ],
  [
    'added NOT NULL without default',
    null,
    version([...base.columns, column('x')]),
    'COLUMN_ADDED_REQUIRED',
    false,
    true,
  ],
  ['removed', null, version([id, base.columns[2]]), 'COLUMN_REMOVED', true, false],
  [
    'widened',
    null,
    version([id, column('amount', { type: { data_type: 'bigint' } }), base.columns[2]]),
    'TYPE_WIDENED',
    true,
    false,
  ],
  [
    'narrowed',
    null,
    version([
      id,
      base.columns[1],
      column('note', { nullable: true, type: { data_type: 'varchar', params: { length: 10 } } }),
    ]),
    'TYPE_NARROWED',
    false,
    true,
  ],
  [
    'retyped',
    null,
    version([id, column('amount', { type: { data_type: 'date' } }), base.columns[2]]),
    'TYPE_CHANGED',
    false,
    false,
  ],
  [
    'made nullable',
    null,
    version([id, column('amount', { nullable: true }), base.columns[2]]),
    'NULLABILITY_RELAXED',
    true,
    false,
  ],
  [
    'made NOT NULL',
    null,
    version([id, base.columns[1], { ...base.columns[2], nullable: false }]),
    'NULLABILITY_TIGHTENED',
    false,
    true,
  ],
  ['moved', null, version([base.columns[1], id, base.columns[2]]), 'COLUMN_MOVED', false, false],
  [
    'primary key added',
    null,
    version(base.columns, { primary_key: { name: 'pk', columns: ['id'] } }),
    'PRIMARY_KEY_CHANGED',
    false,
    false,
  ],
  [
    'unique added',
    null,
    version(base.columns, { unique_constraints: [{ name: 'u', columns: ['amount'] }] }),
    'UNIQUE_ADDED',
    false,
    true,
  ],
  [
    'Avro field added with a default',
    'avro',
    version([...base.columns, column('x', { default: '0' })]),
    'FIELD_ADDED_WITH_DEFAULT',
    true,
    true,
  ],
  [
    'Avro field added without a default',
    'avro',
    version([...base.columns, column('x', { nullable: true })]),
    'FIELD_ADDED_WITHOUT_DEFAULT',
    false,
    true,
  ],
  [
    'Avro field removed (no default)',
    'avro',
    version([id, base.columns[2]]),
    'FIELD_REMOVED_WITHOUT_DEFAULT',
    true,
    false,
  ],
  ['Avro field moved', 'avro', version([base.columns[1], id, base.columns[2]]), 'FIELD_MOVED', true, true],
  [
    'Protobuf field removed',
    'protobuf',
    version([id, base.columns[2]]),
    'FIELD_REMOVED_OPTIONAL',
    true,
    true,
  ],
  [
    'JSON Schema required property added',
    'json_schema',
    version([...base.columns, column('x')]),
    'FIELD_ADDED_REQUIRED',
    false,
    true,
  ],
];

describe('each change gets its rule and its verdict per direction', () => {
  it.each(CASES)('%s', (_situation, flavor, target, rule, backward, forward) => {
    const changes = classifyChanges(base, target, { flavor });
    const ruled = changes.find((c) => c.rule === rule);
    expect(changes.map((c) => c.rule)).toContain(rule);
    expect(ruled).toMatchObject({ backward, forward });
  });

  it('an Avro field removed with a default is compatible both ways', () => {
    const withDefault = version([...base.columns, column('x', { default: '1' })]);
    const [change] = classifyChanges(withDefault, base, { flavor: 'avro' });
    expect(change).toMatchObject({ rule: 'FIELD_REMOVED_WITH_DEFAULT', backward: true, forward: true });
  });

  it('Avro promotes int to long: backward only', () => {
    const from = version([id, column('n', { type: { data_type: 'int' } })]);
    const [change] = classifyChanges(from, version([id, column('n', { type: { data_type: 'long' } })]), {
      flavor: 'avro',
    });
    expect(change).toMatchObject({ rule: 'TYPE_WIDENED', backward: true, forward: false });
  });

  it('every rule id the classifier can give is in the table', () => {
    for (const [, flavor, target] of CASES) {
      for (const change of classifyChanges(base, target, { flavor })) {
        expect(Object.keys(COMPATIBILITY_RULES)).toContain(change.rule);
      }
    }
  });
});

describe('levels', () => {
  it('ask for the directions of their names, transitively or not', () => {
    expect(COMPATIBILITY_LEVELS.map((l) => [l, levelDirections(l), isTransitive(l)])).toEqual([
      ['NONE', [], false],
      ['BACKWARD', ['backward'], false],
      ['BACKWARD_TRANSITIVE', ['backward'], true],
      ['FORWARD', ['forward'], false],
      ['FORWARD_TRANSITIVE', ['forward'], true],
      ['FULL', ['backward', 'forward'], false],
      ['FULL_TRANSITIVE', ['backward', 'forward'], true],
    ]);
  });

  it('refuse a removed column under FORWARD and FULL, not under BACKWARD or NONE', () => {
    const changes = classifyChanges(base, version([id, base.columns[2]]));
    expect(violationsOf('NONE', changes, 3)).toEqual([]);
    expect(violationsOf('BACKWARD', changes, 3)).toEqual([]);
    const expected = {
      version_num: 3,
      direction: 'forward',
      rule: 'COLUMN_REMOVED',
      category: 'column_removed',
      name: 'amount',
    };
    expect(violationsOf('FORWARD', changes, 3)).toEqual([expect.objectContaining(expected)]);
    expect(violationsOf('FULL_TRANSITIVE', changes, 3)).toEqual([expect.objectContaining(expected)]);
  });

  it('refuse a NOT NULL column without default under BACKWARD, with one violation per failing direction', () => {
    const changes = classifyChanges(base, version([...base.columns, column('x')]));
    expect(violationsOf('BACKWARD', changes, 1)).toEqual([
      expect.objectContaining({ direction: 'backward', rule: 'COLUMN_ADDED_REQUIRED', name: 'x' }),
    ]);
    expect(violationsOf('FORWARD', changes, 1)).toEqual([]);
    const retyped = classifyChanges(
      base,
      version([id, column('amount', { type: { data_type: 'date' } }), base.columns[2]]),
    );
    expect(violationsOf('FULL', retyped, 2).map((v) => v.direction)).toEqual(['backward', 'forward']);
  });
});
