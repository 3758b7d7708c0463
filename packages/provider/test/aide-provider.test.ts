// AideMetadataProvider on the real backend (test/global-setup.mjs): the bulk load is one snapshot
// request, revalidated with a 304; the cache-off hooks use DataCoolie's REST routes; watermarks are
// raw text. Requests are counted by a dispatcher interceptor on the real connection.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AideMetadataProvider } from '../src/index.js';
import { adminClient } from './helpers/backend.js';
import { countingClient, registryPipeline, type RegistryPipeline } from './registry-fixture.js';

describe('AideMetadataProvider on the registry', () => {
  const admin = adminClient();
  let p: RegistryPipeline;
  beforeAll(async () => {
    p = await registryPipeline(admin);
  });
  afterAll(async () => {
    await admin.close();
  });

  it('loads the workspace in one snapshot request and serves DataCoolie models', async () => {
    const { client, requests: seen, agent } = countingClient();
    await client.workspaces.get(p.workspace.id); // logs in first: only the snapshot is counted below
    seen.length = 0;
    const provider = new AideMetadataProvider({ client, workspace: p.workspace.code });
    try {
      await provider.initialize();
      expect(seen.map((r) => r.line)).toEqual([
        `GET /api/v1/workspaces/${p.workspace.code}/datacoolie/snapshot`,
      ]);
      const connections = await provider.getConnections();
      expect(connections.map((c) => c.connection_id).sort()).toEqual([p.erp.id, p.bronze.id].sort());
      const [dataflow] = await provider.getDataflows();
      expect(dataflow).toMatchObject({
        dataflow_id: p.copy.id,
        stage: 'source2bronze',
        source: { schema_name: 'sales', table: p.table, watermark_columns: ['updated_at'] },
        destination: { schema_name: 'erp', table: p.table, load_type: 'merge_upsert' },
      });
      expect(dataflow!.source.connection.configure).toMatchObject({
        database_type: 'postgresql',
        port: 5432,
      });
      expect(
        dataflow!.transform.schema_hints.map((h) => [h.column_name, h.data_type, h.precision, h.scale]),
      ).toEqual([
        ['order_id', 'bigint', null, null],
        ['amount', 'numeric', 18, 2],
        ['updated_at', 'timestamptz', null, null],
      ]);
      expect((await provider.getDataflows({ activeOnly: false })).length).toBe(2);
      expect(await provider.getDataflows({ stage: 'bronze2silver' })).toEqual([]);
      expect((await provider.getDataflowById(p.inactive.id))?.is_active).toBe(false);
      expect((await provider.getConnectionByName(p.bronze.name))?.format).toBe('delta');
      expect(await provider.getSchemaHints(p.erp.id, p.table.toUpperCase(), 'SALES')).toHaveLength(3);
      expect(seen).toHaveLength(1);
    } finally {
      await provider.close();
      await client.close();
      await agent.close();
    }
  });
});
