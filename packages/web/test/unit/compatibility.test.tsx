import {
  COMPATIBILITY_LEVELS,
  PublishSchemaVersionSchema,
  type SchemaVersion,
  type TranslatedColumn,
} from '@aide/schemas';
import { AideApiError } from '@aide/sdk';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  CheckResult,
  LEVEL_MEANINGS,
  levelMeanings,
  publishBodyOf,
  ruleMeaning,
} from '../../src/components/Compatibility';
import {
  downloadName,
  LossReport,
  lossOfError,
  lossSentence,
  lossyColumns,
} from '../../src/components/Translate';

describe('level meanings (cut out of the contract description of CompatibilityLevel)', () => {
  it('gives every level its own words, a _TRANSITIVE one its base level and the transitive part', () => {
    for (const level of COMPATIBILITY_LEVELS) expect(LEVEL_MEANINGS[level]).not.toBe(level);
    expect(LEVEL_MEANINGS.BACKWARD).toBe('the new version reads data written under the previous one');
    expect(LEVEL_MEANINGS.BACKWARD_TRANSITIVE).toBe(
      `${LEVEL_MEANINGS.BACKWARD}, against every earlier version, not only the latest`,
    );
    expect(LEVEL_MEANINGS.FULL).toContain(LEVEL_MEANINGS.FORWARD);
    expect(LEVEL_MEANINGS.NONE).toBe('nothing is checked');
  });

  it('falls back to the level name when the description does not cover it', () => {
    expect(levelMeanings('Levels: BACKWARD — reads old data').FORWARD).toBe('FORWARD');
  });

  it("explains a rule with the rule table's description", () => {
    expect(ruleMeaning('COLUMN_REMOVED')).toMatch(/column removed/);
    expect(ruleMeaning('NO_SUCH_RULE')).toBe('');
  });
});

const version: SchemaVersion = {
  dataset_schema_id: '00000000-0000-4000-8000-000000000001',
  dataset_id: '00000000-0000-4000-8000-000000000002',
  version_num: 3,
  created_at: '2026-12-01T10:00:00.000Z',
  columns: [
    {
      field_id: '00000000-0000-4000-8000-000000000010',
      name: 'tags',
      position: 2,
      nullable: true,
      type_instance_id: '00000000-0000-4000-8000-000000000011',
      rendered_type: 'varchar(20)[]',
      type: {
        id: '00000000-0000-4000-8000-000000000011',
        data_type_id: '00000000-0000-4000-8000-000000000012',
        data_type_code: 'array',
        type_params: null,
        slot: null,
        children: [
          {
            id: '00000000-0000-4000-8000-000000000013',
            data_type_id: '00000000-0000-4000-8000-000000000014',
            data_type_code: 'varchar',
            type_params: { length: 20 },
            slot: 'element',
            children: [],
          },
        ],
      },
      pii_tags: null,
      native_type: 'character varying(20)[]',
      default: null,
      comment: null,
      identity: null,
      generated: null,
      collation: null,
    },
    {
      field_id: '00000000-0000-4000-8000-000000000020',
      name: 'id',
      position: 1,
      nullable: false,
      type_instance_id: '00000000-0000-4000-8000-000000000021',
      rendered_type: 'bigint',
      type: {
        id: '00000000-0000-4000-8000-000000000021',
        data_type_id: '00000000-0000-4000-8000-000000000022',
        data_type_code: 'bigint',
        type_params: null,
        slot: null,
        children: [],
      },
      pii_tags: ['id'],
      native_type: 'bigint',
      default: null,
      comment: 'the key',
      identity: 'always',
      generated: null,
      collation: null,
    },
  ],
  table_kind: 'table',
  table_comment: null,
  view_definition: null,
  primary_key: { name: 'orders_pkey', columns: ['id'] },
  unique_constraints: [],
  foreign_keys: [
    {
      name: 'orders_customer_fk',
      columns: ['id'],
      referenced: { dataset_id: null, schema: 'public', table: 'customers', columns: ['id'] },
      on_update: 'NO ACTION',
      on_delete: 'CASCADE',
    },
  ],
  indexes: [],
  check_constraints: [],
};

describe('publishBodyOf (a stored version as the body of a check)', () => {
  it('is a valid publish body: columns by position, type trees as specs, the table structure kept', () => {
    const body = publishBodyOf(version);
    expect(PublishSchemaVersionSchema.safeParse(body).success).toBe(true);
    expect(body.columns.map((c) => c.name)).toEqual(['id', 'tags']);
    expect(body.columns[0]).toMatchObject({ identity: 'always', comment: 'the key', nullable: false });
    expect(body.columns[1]?.type).toEqual({
      data_type: 'array',
      children: [{ slot: 'element', type: { data_type: 'varchar', params: { length: 20 } } }],
    });
    expect(body.primary_key).toEqual({ name: 'orders_pkey', columns: ['id'] });
    expect(body.foreign_keys?.[0]?.on_delete).toBe('CASCADE');
    // Read-only keys of the stored version are not sent (the publish body is strict).
    expect(Object.keys(body)).not.toContain('dataset_schema_id');
    expect(Object.keys(body.columns[0] ?? {})).not.toContain('field_id');
  });
});

describe('the check verdict', () => {
  it('shows a refusal with each violation, its rule and what the rule means', () => {
    const { container } = render(
      <CheckResult
        check={{
          dataset_id: version.dataset_id,
          level: 'FULL',
          source: 'dataset',
          accepted: false,
          base_version_num: 2,
          compared_versions: [2],
          violations: [
            {
              version_num: 2,
              direction: 'backward',
              rule: 'COLUMN_ADDED_REQUIRED',
              category: 'column_added',
              name: 'total',
              reason: 'added NOT NULL without a default',
            },
          ],
          impact: null,
          compatibility: 'breaking',
          changes: [],
        }}
      />,
    );
    const text = container.textContent ?? '';
    expect(text).toContain('Refused under FULL (set on this dataset), compared with v2.');
    expect(text).toContain('COLUMN_ADDED_REQUIRED');
    expect(text).toContain(ruleMeaning('COLUMN_ADDED_REQUIRED'));
    expect(container.querySelector('abbr')?.getAttribute('title')).toBe(LEVEL_MEANINGS.FULL);
  });
});

const columns: TranslatedColumn[] = [
  { path: 'id', source_type: 'bigint', target_type: 'bigint', fidelity: 'exact', loss: [] },
  {
    path: 'at',
    source_type: 'timestamptz',
    target_type: 'datetime(6)',
    fidelity: 'lossy',
    loss: ['time zone'],
  },
  { path: 'span', source_type: 'interval', target_type: null, fidelity: null, loss: [] },
  { path: 'n', source_type: 'integer', target_type: 'bigint', fidelity: 'widening', loss: [] },
];

describe('the loss report', () => {
  it('lists the lossy and unmapped columns, not the exact or widening ones', () => {
    expect(lossyColumns(columns).map((c) => c.path)).toEqual(['at', 'span']);
    const { container } = render(
      <LossReport
        columns={columns}
        omissions={[{ kind: 'check', path: 'chk_total', reason: 'no checks' }]}
      />,
    );
    const rows = [...container.querySelectorAll('tbody tr')].map((r) => r.textContent);
    expect(rows).toEqual([
      'attimestamptzdatetime(6)lossytime zone',
      'spaninterval(not mapped)noneno cast into the flavor',
    ]);
    expect(container.querySelector('ul.omissions')?.textContent).toBe('checkchk_total: no checks');
  });

  it("reads a TRANSLATION_LOSSY error's details (model columns or wire columns), skipping the rest", () => {
    const error = new AideApiError({
      status: 422,
      errorCode: 'TRANSLATION_LOSSY',
      detail: 'lossy',
      requestId: undefined,
      details: {
        lossy_columns: [
          {
            name: 'total',
            nullable: false,
            source_type: 'numeric(12,2)',
            type: { code: 'decimal', params: {}, rendered: 'decimal(12,2)', children: [] },
            fidelity: 'lossy',
            loss: ['precision above 10 when unset'],
          },
          'junk',
        ],
        columns: [columns[1]],
        omissions: [{ kind: 'check', path: null, reason: 'no checks' }, 3],
      },
      headers: {},
      route: 'GET /x',
    });
    expect(lossOfError(error)).toEqual({
      columns: [
        {
          path: 'total',
          source_type: 'numeric(12,2)',
          target_type: 'decimal(12,2)',
          fidelity: 'lossy',
          loss: ['precision above 10 when unset'],
        },
        columns[1],
      ],
      omissions: [{ kind: 'check', path: null, reason: 'no checks' }],
    });
    const empty = new AideApiError({ ...error, errorCode: 'TRANSLATION_LOSSY', details: { omissions: 'x' } });
    expect(lossOfError(empty)).toEqual({ columns: [], omissions: [] });
  });

  it('says how much is lost', () => {
    expect(lossSentence(1, 0)).toBe('1 column loses information.');
    expect(lossSentence(2, 1)).toBe('2 columns lose information, 1 thing is left out.');
    expect(lossSentence(0, 3)).toBe('0 columns lose information, 3 things are left out.');
  });

  it('names a download after the dataset, version, flavor and format', () => {
    expect(downloadName('public.orders', { version_num: 2, target_flavor: 'mysql8', format: 'ddl' })).toBe(
      'public.orders.v2.mysql8.sql',
    );
    expect(downloadName('a b/c', { version_num: 1, target_flavor: 'avro', format: 'avro' })).toBe(
      'a_b_c.v1.avro.avsc',
    );
  });
});
