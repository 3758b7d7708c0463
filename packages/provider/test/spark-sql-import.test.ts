// Issue 24 and 26: a DataCoolie document whose source is a Delta lakehouse, with Spark SQL schema hints
// (DATE, DECIMAL with precision and scale, INTEGER, VARCHAR(20), …), imported on the real backend
// (test/global-setup.mjs) over a system of the seeded `spark_sql` flavor. Hints are declarations
// (ADR 0050): each is checked against the flavor's types, none becomes a schema version, and the
// provider serves them back as written — spelling, order and all.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createSchemaHint } from '@aide/schemas/datacoolie';
import { AideMetadataProvider, importWorkspaceDocuments } from '../src/index.js';
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

    const { plan, refused } = await importWorkspaceDocuments(admin, [{ document, source: 'lake.json' }], {
      workspace,
    });
    expect(plan.problems).toEqual([]);
    expect(refused).toBe(false);
    expect(plan.applied).toBe(true);
    expect(plan.items).toContainEqual(
      expect.objectContaining({
        kind: 'schema_hint_group',
        name: `lake_${id}: sales.orders`,
        action: 'create',
      }),
    );

    // The table the dataflow reads is a dataset of the matched system, without a schema version.
    const [dataset] = (await admin.datasets.list({ system_id: system.id, object_name: 'sales.orders' }))
      .items;
    expect(dataset).toBeDefined();
    expect(await admin.datasets.schemaVersions(dataset!.id)).toEqual([]);

    // A type the spark_sql flavor lacks is a problem of the plan; nothing is written.
    const bad = structuredClone(document);
    bad.schema_hints[0]!.hints.push({ column_name: 'odd', data_type: 'NO_SUCH_TYPE', ordinal_position: 9 });
    Object.assign(bad.dataflows[0]!, { description: 'changed' });
    const refusedRun = await importWorkspaceDocuments(admin, [{ document: bad, source: 'bad.json' }], {
      workspace,
    });
    expect(refusedRun.refused).toBe(true);
    expect(refusedRun.plan.applied).toBe(false);
    expect(refusedRun.plan.problems).toContainEqual(
      expect.objectContaining({ reason: expect.stringContaining('NO_SUCH_TYPE') }),
    );
    const flow = await admin.dataflows.list({ workspace_id: plan.workspace.id!, name: `orders_${id}` });
    expect(flow.items[0]?.description ?? null).toBeNull();

    // What DataCoolie reads: the hints as written (upper-case Spark spelling kept), in ordinal order.
    const provider = new AideMetadataProvider({ client: admin, workspace });
    try {
      expect(await provider.getSchemaHints(connectionId, 'orders', 'sales')).toEqual(
        hints.map((h) => createSchemaHint(h)),
      );
    } finally {
      await provider.close();
    }
  });
});
