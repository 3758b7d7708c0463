// Issue 24: a DataCoolie document whose source is a Delta lakehouse, with Spark SQL schema hints
// (DATE, DECIMAL(12,2), INTEGER, VARCHAR(20), …), imported on the real backend (test/global-setup.mjs)
// over a system of the seeded `spark_sql` flavor: each hint becomes a column of that flavor's data
// type with its params, rendered as Spark SQL, and the provider serves the hints back as given.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createSchemaHint } from '@aide/schemas/datacoolie';
import { importWorkspaceDocuments } from '../src/aide/document-import.js';
import { AideMetadataProvider } from '../src/index.js';
import { adminClient } from './helpers/backend.js';
import { suffix } from './registry-fixture.js';

describe('importing Spark SQL hints of a Delta lakehouse table', () => {
  const admin = adminClient();
  afterAll(() => admin.close());

  it('types each column with the seeded spark_sql flavor and exports the hints back', async () => {
    const id = suffix();
    const root = `s3://delta-${id}/lakehouse`;
    const [flavor] = (await admin.systemFlavors.list({ code: 'spark_sql' })).items;
    expect(flavor).toBeDefined();
    // The lakehouse connection is matched to this system by its base_path (below the system's).
    const system = await admin.systems.create({
      code: `spark_lake_${id}`,
      name: 'Delta lakehouse',
      flavor_id: flavor!.id,
      extra: { base_path: root, catalog_uri: `thrift://metastore-${id}:9083` },
    });
    const connectionId = randomUUID();
    // Decimal precision and scale apart (DataCoolie appends them); a varchar's length in its name.
    const hints = [
      { column_name: 'order_id', data_type: 'BIGINT', ordinal_position: 1 },
      { column_name: 'order_date', data_type: 'DATE', ordinal_position: 2 },
      { column_name: 'amount', data_type: 'DECIMAL', precision: 12, scale: 2, ordinal_position: 3 },
      { column_name: 'quantity', data_type: 'INTEGER', ordinal_position: 4 },
      { column_name: 'customer', data_type: 'STRING', ordinal_position: 5 },
      { column_name: 'updated_at', data_type: 'TIMESTAMP', ordinal_position: 6 },
      { column_name: 'is_paid', data_type: 'BOOLEAN', ordinal_position: 7 },
      { column_name: 'status', data_type: 'VARCHAR(20)', ordinal_position: 8 },
    ];
    const document = {
      connections: [
        {
          connection_id: connectionId,
          name: `lake_${id}`,
          connection_type: 'lakehouse',
          format: 'delta',
          configure: { base_path: `${root}/bronze` },
        },
      ],
      dataflows: [
        {
          dataflow_id: randomUUID(),
          name: `orders_${id}`,
          stage: 'bronze2silver',
          source: { connection_name: `lake_${id}`, schema_name: 'sales', table: 'orders' },
          destination: {
            connection_name: `lake_${id}`,
            schema_name: 'curated',
            table: 'orders',
            load_type: 'overwrite',
          },
        },
      ],
      schema_hints: [{ connection_name: `lake_${id}`, schema_name: 'sales', table_name: 'orders', hints }],
    };
    const workspace = `ws-delta-${id}`;

    const report = await importWorkspaceDocuments(admin, [{ document, source: 'lake.json' }], {
      workspace,
    });
    expect(report.skipped).toEqual([]);
    expect(report.items).toContainEqual(
      expect.objectContaining({ kind: 'schema_version', action: 'created' }),
    );

    const [dataset] = (await admin.datasets.list({ system_id: system.id, object_name: 'sales.orders' }))
      .items;
    expect(dataset).toBeDefined();
    const version = await admin.datasets.schemaVersion(dataset!.id, 1);
    const sparkTypes = new Set(
      (await admin.dataTypes.list({ system_flavor_id: flavor!.id, size: 100 })).items.map((t) => t.id),
    );
    expect(version.columns.every((c) => c.type !== null && sparkTypes.has(c.type.data_type_id))).toBe(true);
    expect(
      version.columns.map((c) => [
        c.name,
        c.type?.data_type_code,
        c.type?.type_params ?? null,
        c.rendered_type,
      ]),
    ).toEqual([
      ['order_id', 'bigint', null, 'bigint'],
      ['order_date', 'date', null, 'date'],
      ['amount', 'decimal', { precision: 12, scale: 2 }, 'decimal(12,2)'],
      ['quantity', 'integer', null, 'integer'],
      ['customer', 'string', null, 'string'],
      ['updated_at', 'timestamp', null, 'timestamp'],
      ['is_paid', 'boolean', null, 'boolean'],
      ['status', 'varchar', { length: 20 }, 'varchar(20)'],
    ]);

    // What DataCoolie reads: the registry's snapshot. Spark type names are case-insensitive, and the
    // registry keeps its data type codes (lower case).
    const provider = new AideMetadataProvider({ client: admin, workspace });
    try {
      expect(await provider.getSchemaHints(connectionId, 'orders', 'sales')).toEqual(
        hints.map((h) => createSchemaHint({ ...h, data_type: h.data_type.toLowerCase() })),
      );
    } finally {
      await provider.close();
    }
  });
});
