// The classifier's format rules (issue 24): a field added to an Avro schema is compatible only with a
// default (Avro schema resolution); one added to a Protobuf message always is; SQL's rules otherwise.
import { describe, expect, it } from '@jest/globals';
import { classifyChanges, classifyVersionChange } from './classify.js';
import type { ComparableColumn, ComparableVersion } from './comparable.js';

const column = (name: string, over: Partial<ComparableColumn> = {}): ComparableColumn => ({
  name,
  nullable: false,
  type: { data_type: 'string' },
  native_type: 'string',
  default: null,
  comment: null,
  identity: null,
  generated: null,
  collation: null,
  ...over,
});
const version = (columns: ComparableColumn[]): ComparableVersion => ({
  table_kind: 'table',
  table_comment: null,
  view_definition: null,
  columns,
  primary_key: null,
  unique_constraints: [],
  foreign_keys: [],
  indexes: [],
  check_constraints: [],
});
const base = version([column('id')]);
const added = (field: ComparableColumn, flavor?: string | null) => {
  const changes = classifyChanges(
    base,
    version([column('id'), field]),
    flavor === undefined ? {} : { flavor },
  );
  expect(changes.map((c) => c.category)).toEqual(['column_added']);
  return changes[0].compatibility;
};

describe('a column added, by the format of the dataset', () => {
  it('Avro: compatible with a default (even "null"), breaking without one, nullable or not', () => {
    expect(added(column('note', { nullable: true, default: 'null' }), 'avro')).toBe('compatible');
    expect(added(column('count', { default: '0' }), 'avro')).toBe('compatible');
    expect(added(column('note', { nullable: true }), 'avro')).toBe('breaking');
    expect(added(column('count'), 'avro')).toBe('breaking');
  });

  it('Protobuf: always compatible (readers see the default value)', () => {
    expect(added(column('count'), 'protobuf')).toBe('compatible');
  });

  it('SQL and any other flavor keep the rule: nullable or a default is compatible, else breaking', () => {
    for (const flavor of [undefined, null, 'postgres14', 'json_schema']) {
      expect(added(column('note', { nullable: true }), flavor)).toBe('compatible');
      expect(added(column('count', { default: '0' }), flavor)).toBe('compatible');
      expect(added(column('count'), flavor)).toBe('breaking');
    }
  });

  it('classifyVersionChange passes the flavor on', () => {
    const target = version([column('id'), column('note', { nullable: true })]);
    expect(classifyVersionChange(base, target).compatibility).toBe('compatible');
    expect(classifyVersionChange(base, target, { flavor: 'avro' }).compatibility).toBe('breaking');
  });
});
