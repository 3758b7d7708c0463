import { describe, expect, it } from '@jest/globals';
import type { SchemaVersion } from './entities/schema-version.js';
import type { TypeInstanceTree } from './entities/type-instance.js';
import {
  canonicalStructure,
  type FingerprintInput,
  schemaVersionFingerprint,
  structureFingerprint,
} from './fingerprint.js';

const column = (name: string, extra: Partial<FingerprintInput['columns'][number]> = {}) => ({
  name,
  nullable: true,
  type: { data_type: 'varchar', params: { length: 40 } },
  native_type: 'character varying(40)',
  default: null,
  comment: null,
  identity: null,
  generated: null,
  collation: null,
  ...extra,
});

const index = (name: string, columns: string[]) => ({
  name,
  unique: false,
  method: 'btree',
  columns,
  expression: null,
  include: [],
  predicate: null,
  definition: null,
});

const base: FingerprintInput = {
  table_kind: 'table',
  table_comment: 'orders',
  view_definition: null,
  columns: [
    column('id', { nullable: false, type: { data_type: 'bigint' }, native_type: 'bigint' }),
    column('tags', {
      type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
      native_type: 'text[]',
    }),
    column('email'),
  ],
  primary_key: { name: 'orders_pkey', columns: ['id'] },
  unique_constraints: [{ name: 'orders_email_key', columns: ['email'] }],
  foreign_keys: [
    {
      name: 'orders_customer_fk',
      columns: ['email'],
      referenced: { schema: 'sales', table: 'customers', columns: ['email'] },
      on_update: 'NO ACTION',
      on_delete: 'CASCADE',
    },
  ],
  indexes: [index('orders_a_idx', ['email']), index('orders_b_idx', ['tags'])],
  check_constraints: [{ name: 'orders_id_check', expression: '(id > 0)' }],
};

describe('structureFingerprint', () => {
  it('is a hex SHA-256 and ignores what the crawler does not compare as a change', () => {
    const fingerprint = structureFingerprint(base);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // Keyed lists in another order, params in another key order, a null kind as `table`.
    const reordered: FingerprintInput = {
      ...base,
      table_kind: null,
      indexes: [...base.indexes].reverse(),
      columns: base.columns.map((c) =>
        c.name === 'email' ? { ...c, type: { params: { length: 40 }, data_type: 'varchar' } } : c,
      ),
    };
    expect(structureFingerprint(reordered)).toBe(fingerprint);
  });

  it('changes with every attribute the crawler compares', () => {
    const fingerprint = structureFingerprint(base);
    const [id, tags, email] = base.columns;
    const variants: FingerprintInput[] = [
      { ...base, columns: [id, email, tags] },
      { ...base, columns: [id, tags, { ...email, nullable: false }] },
      { ...base, columns: [id, tags, { ...email, type: { data_type: 'varchar', params: { length: 41 } } }] },
      { ...base, columns: [id, tags, { ...email, native_type: 'varchar(40)' }] },
      { ...base, columns: [id, tags, { ...email, default: "''" }] },
      { ...base, columns: [id, tags, { ...email, comment: 'mail' }] },
      { ...base, columns: [id, tags, { ...email, identity: 'always' }] },
      { ...base, columns: [id, tags, { ...email, generated: 'lower(x)' }] },
      { ...base, columns: [id, tags, { ...email, collation: 'C' }] },
      { ...base, table_kind: 'view' },
      { ...base, table_comment: null },
      { ...base, view_definition: 'SELECT 1' },
      { ...base, primary_key: { name: 'orders_pkey', columns: ['id', 'email'] } },
      { ...base, unique_constraints: [] },
      { ...base, foreign_keys: [{ ...base.foreign_keys[0], on_delete: 'RESTRICT' }] },
      {
        ...base,
        foreign_keys: [{ ...base.foreign_keys[0], referenced: { dataset_id: 'x', columns: ['email'] } }],
      },
      { ...base, indexes: [index('orders_a_idx', ['email', 'id']), base.indexes[1]] },
      { ...base, check_constraints: [{ name: 'orders_id_check', expression: '(id >= 0)' }] },
    ];
    const fingerprints = variants.map(structureFingerprint);
    expect(fingerprints).not.toContain(fingerprint);
    expect(new Set(fingerprints).size).toBe(variants.length);
  });

  it('of a version as read: columns by position, type trees in the crawler terms, no PII tags', () => {
    const tree = (code: string, children: { slot: string; code: string }[] = []): TypeInstanceTree => ({
      id: '00000000-0000-4000-8000-000000000001',
      data_type_id: '00000000-0000-4000-8000-000000000002',
      data_type_code: code,
      type_params: null,
      slot: null,
      children: children.map((c) => ({ ...tree(c.code), slot: c.slot })),
    });
    const read = (position: number, name: string, type: TypeInstanceTree, native: string) => ({
      field_id: '00000000-0000-4000-8000-000000000003',
      name,
      position,
      nullable: true,
      type_instance_id: null,
      rendered_type: 'rendered by the registry',
      type,
      pii_tags: ['email'],
      native_type: native,
      default: null,
      comment: null,
      identity: null,
      generated: null,
      collation: null,
    });
    const version: SchemaVersion = {
      dataset_schema_id: '00000000-0000-4000-8000-000000000004',
      dataset_id: '00000000-0000-4000-8000-000000000005',
      version_num: 3,
      created_at: '2026-12-03T00:00:00.000Z',
      columns: [
        read(2, 'tags', tree('array', [{ slot: 'item', code: 'text' }]), 'text[]'),
        read(1, 'id', tree('bigint'), 'bigint'),
      ],
      table_kind: 'table',
      table_comment: null,
      view_definition: null,
      primary_key: null,
      unique_constraints: [],
      foreign_keys: [],
      indexes: [],
      check_constraints: [],
    };
    const inspected: FingerprintInput = {
      ...version,
      columns: [
        column('id', { type: { data_type: 'bigint' }, native_type: 'bigint' }),
        column('tags', {
          type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
          native_type: 'text[]',
        }),
      ],
    };
    expect(schemaVersionFingerprint(version)).toBe(structureFingerprint(inspected));
    expect(canonicalStructure(inspected)).not.toContain('rendered by the registry');
  });
});
