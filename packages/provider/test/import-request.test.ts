// What `aide-provider import` sends and prints (ADR 0050), without a registry: the request is the
// documents' scope as DataCoolie loads it (connection descriptions carried, dataflow ends by id, hints in
// document order), and the plan reads one line per object, changes indented, problems with their code.
import { describe, expect, it } from '@jest/globals';
import { DataCoolieImportRequestSchema, type DataCoolieImportPlan } from '@aide/schemas';
import { planText } from '../src/cli/plan-text.js';
import { importRequestOf, loadMetadataDocument, nameToUuid } from '../src/index.js';
import { bronzeLakehouse, erpPostgres, fileDocument } from './examples.js';

const document = {
  ...fileDocument,
  connections: [{ ...erpPostgres, description: 'ERP replica' }, bronzeLakehouse],
  schema_hints: [
    {
      connection_name: 'erp_postgres',
      schema_name: 'sales',
      table_name: 'orders',
      // Out of ordinal order on purpose: the request keeps the document's order.
      hints: [
        { column_name: 'b', data_type: 'DECIMAL', precision: 18, scale: 2, ordinal_position: 2 },
        { column_name: 'a', data_type: 'INTEGER', ordinal_position: 1 },
        { column_name: 'c', data_type: 'timestamp_ntz', ordinal_position: null },
      ],
    },
  ],
};

describe('the import request', () => {
  it("is the documents' scope as DataCoolie loads it, valid for the contract", () => {
    const request = importRequestOf([{ document, source: 'doc.yaml' }], { dryRun: true, prune: true });
    expect(DataCoolieImportRequestSchema.parse(request)).toEqual(request);
    const loaded = loadMetadataDocument(document);
    expect(request).toMatchObject({ dry_run: true, prune: true, systems: {} });
    // Model dumps, plus the description the document gave (and only then).
    expect(JSON.stringify(request.connections)).toBe(
      JSON.stringify([{ ...loaded.connections[0], description: 'ERP replica' }, loaded.connections[1]]),
    );
    const [flow] = request.dataflows!;
    expect(Object.keys(flow!.source)[0]).toBe('connection_id');
    expect(flow!.source.connection_id).toBe(erpPostgres.connection_id);
    expect(flow!.destination.connection_id).toBe(bronzeLakehouse.connection_id);
    expect(flow!.transform).toEqual(JSON.parse(JSON.stringify(loaded.dataflows[0]!.transform)));
    expect(request.schema_hints![0]!.hints.map((h) => [h.column_name, h.data_type])).toEqual([
      ['b', 'DECIMAL'],
      ['a', 'INTEGER'],
      ['c', 'timestamp_ntz'],
    ]);
    expect(request.schema_hints![0]!.connection_id).toBe(erpPostgres.connection_id);
  });

  it('lists connections defined inline in a dataflow, with name-derived ids', () => {
    const inline = { name: 'inline_lake', connection_type: 'lakehouse', format: 'delta', configure: {} };
    const request = importRequestOf([
      {
        document: {
          connections: [erpPostgres],
          dataflows: [
            {
              name: 'f',
              source: { connection_name: 'erp_postgres', schema_name: 's', table: 't' },
              destination: { connection: inline, table: 'out' },
            },
          ],
        },
      },
    ]);
    expect(request.connections!.map((c) => c.connection_id)).toEqual([
      erpPostgres.connection_id,
      nameToUuid('inline_lake'),
    ]);
    expect(request.dataflows![0]!.dataflow_id).toBe(nameToUuid('f'));
  });

  it("refuses what DataCoolie refuses, with DataCoolie's reason", () => {
    expect(() =>
      importRequestOf([
        {
          document: { connections: [{ name: 'acc_lakehouse', connection_type: 'lakehouse', format: 'csv' }] },
          source: 'lake.yaml',
        },
      ]),
    ).toThrow(
      "Invalid connection definition: acc_lakehouse (source: lake.yaml): Format 'csv' is not valid for connection_type 'lakehouse'. Allowed: delta, iceberg",
    );
    expect(() =>
      importRequestOf([
        {
          document: {
            connections: [erpPostgres, { ...bronzeLakehouse, connection_id: erpPostgres.connection_id }],
          },
        },
      ]),
    ).toThrow(`Duplicate connection_id in metadata: ${erpPostgres.connection_id}`);
  });
});

describe('the plan as text', () => {
  const plan: DataCoolieImportPlan = {
    workspace: { id: null, code: 'analytics', action: 'unchanged' },
    dry_run: false,
    prune: true,
    applied: true,
    items: [
      { kind: 'connection', name: 'erp', datacoolie_id: 'c1', id: null, action: 'create', changes: [] },
      {
        kind: 'dataflow',
        name: 'orders',
        datacoolie_id: 'd1',
        id: null,
        action: 'update',
        changes: [
          { field: 'description', before: null, after: 'new' },
          { field: 'transform', before: { x: 'y'.repeat(100) }, after: {} },
        ],
      },
      {
        kind: 'schema_hint_group',
        name: 'erp: sales.orders',
        datacoolie_id: null,
        id: null,
        action: 'delete',
        changes: [],
      },
    ],
    summary: { create: 1, update: 1, unchanged: 0, delete: 1 },
    problems: [],
  };

  it('shows one line per object, each change below its update, and a summary', () => {
    const cut = `{"x":"${'y'.repeat(73)}…`;
    expect(planText(plan)).toBe(
      [
        'workspace analytics (unchanged)',
        'create     connection         erp',
        'update     dataflow           orders',
        '    description: null → "new"',
        `    transform: ${cut} → {}`,
        'delete     schema_hint_group  erp: sales.orders',
        '1 to create, 1 to update, 0 unchanged, 1 to delete — applied',
        '',
      ].join('\n'),
    );
  });

  it('says when there was nothing to do', () => {
    const noop: DataCoolieImportPlan = {
      ...plan,
      items: plan.items.map((item) => ({ ...item, action: 'unchanged', changes: [] })),
      summary: { create: 0, update: 0, unchanged: 3, delete: 0 },
    };
    expect(planText(noop)).toMatch(/^0 to create, 0 to update, 3 unchanged, 0 to delete — nothing to do\n$/m);
    expect(planText({ ...plan, dry_run: true, applied: false })).toMatch(/ — dry run: nothing written\n$/);
  });

  it('lists the problems with their codes when the plan was refused', () => {
    const refused: DataCoolieImportPlan = {
      ...plan,
      prune: false,
      applied: false,
      problems: [
        { kind: 'connection', name: 'erp', reason: 'no system matches', code: null },
        { kind: 'dataflow', name: 'orders', reason: 'unknown column x', code: 'DATAFLOW_UNKNOWN_COLUMNS' },
      ],
    };
    expect(planText(refused).split('\n').slice(-5)).toEqual([
      '1 to create, 1 to update, 0 unchanged, 1 to delete (no --prune) — not applied: 2 problem(s), nothing written',
      'problems (2):',
      '  connection erp: no system matches',
      '  dataflow orders: unknown column x [DATAFLOW_UNKNOWN_COLUMNS]',
      '',
    ]);
  });
});
