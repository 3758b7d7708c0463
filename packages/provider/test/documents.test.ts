// DataCoolie metadata documents (reference §1.10, §6.1): JSON and YAML load unchanged into models and
// into an InMemoryMetadataProvider; reference errors are reported with the reference's messages.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import {
  createConnection,
  createDataflow,
  createSchemaHint,
  InMemoryMetadataProvider,
  loadMetadataDocument,
  MetadataError,
  parseMetadataText,
  readMetadataFile,
} from '../src/index.js';
import { thrownMessage } from './fixtures.js';
import { amountHint, bronzeLakehouse, erpOrdersToBronze, erpPostgres, fileDocument } from './examples.js';

const loadError = (document: unknown): string =>
  thrownMessage(() => loadMetadataDocument(document, 'doc.yaml'), MetadataError);

describe('the §1.10 JSON examples as models', () => {
  it('a connection keeps its model-dump shape', () => {
    expect(createConnection(erpPostgres)).toEqual(erpPostgres);
  });

  it('a dataflow with expanded connections keeps its shape, defaults filled', () => {
    const dataflow = createDataflow(erpOrdersToBronze);
    expect(dataflow).toMatchObject(erpOrdersToBronze);
    expect(dataflow.source.connection.catalog).toBeNull();
    expect(dataflow.destination.connection).toEqual({ ...bronzeLakehouse, catalog: null, database: null });
    expect(createDataflow(JSON.parse(JSON.stringify(dataflow)))).toEqual(dataflow);
  });

  it('a schema hint', () => {
    expect(createSchemaHint(amountHint)).toEqual(amountHint);
  });
});

describe('metadata documents', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'aide-provider-docs-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const expectScope = async (provider: InMemoryMetadataProvider) => {
    const connections = await provider.getConnections();
    expect(connections.map((connection) => connection.name)).toEqual(['erp_postgres', 'bronze_lakehouse']);
    const [dataflow] = await provider.getDataflows({ stage: 'source2bronze' });
    expect(dataflow?.source.connection).toEqual(createConnection(erpPostgres));
    expect(dataflow?.destination.connection.name).toBe('bronze_lakehouse');
    expect(dataflow?.source.filter_expression).toBe("status <> 'DRAFT'");
    expect(dataflow?.destination.partition_columns).toEqual([{ column: 'order_date', expression: null }]);
    expect(dataflow?.transform.schema_hints).toEqual([
      createSchemaHint({ column_name: 'amount', data_type: 'numeric', precision: 18, scale: 2 }),
    ]);
    expect(await provider.getSchemaHints(erpPostgres.connection_id, 'ORDERS', 'Sales')).toHaveLength(1);
  };

  it('a parsed document', async () => {
    await expectScope(new InMemoryMetadataProvider({ document: fileDocument }));
  });

  it('JSON and YAML texts and files', async () => {
    const json = JSON.stringify(fileDocument, null, 2);
    const yaml = toYaml(fileDocument);
    expect(parseMetadataText(json, 'json')).toEqual(parseMetadataText(yaml, 'yaml'));
    writeFileSync(join(dir, 'metadata.json'), json);
    writeFileSync(join(dir, 'metadata.yaml'), yaml);
    expect((await readMetadataFile(join(dir, 'metadata.yaml'))).document).toEqual(fileDocument);
    await expectScope(new InMemoryMetadataProvider({ files: [join(dir, 'metadata.json')] }));
    await expectScope(new InMemoryMetadataProvider({ files: [join(dir, 'metadata.yaml')] }));
  });

  it('sections of several files are concatenated, and a `metadata` wrapper is accepted', async () => {
    writeFileSync(
      join(dir, 'connections.yml'),
      toYaml({ $schema: 'x', connections: fileDocument.connections }),
    );
    writeFileSync(
      join(dir, 'flows.yml'),
      toYaml({ metadata: { dataflows: fileDocument.dataflows, schema_hints: fileDocument.schema_hints } }),
    );
    await expectScope(
      new InMemoryMetadataProvider({ files: [join(dir, 'connections.yml'), join(dir, 'flows.yml')] }),
    );
  });

  it('a failed start re-reads the files; construction reads nothing', async () => {
    const path = join(dir, 'later.yaml');
    const provider = new InMemoryMetadataProvider({ files: [path] });
    await expect(provider.initialize()).rejects.toThrow(`Cannot read metadata config: ${path}`);
    writeFileSync(path, toYaml(fileDocument));
    await expectScope(provider);
  });

  it('YAML written by hand, as DataCoolie users write it', async () => {
    const text = `
connections:
  - name: landing
    format: csv
    configure: { base_path: /data/landing, use_schema_hint: "yes" }
  - name: bronze
    connection_type: lakehouse
    format: delta
dataflows:
  - name: orders_flow
    stage: bronze
    source: { connection_name: landing, table: orders, watermark_columns: "updated_at, id" }
    destination: { connection_name: bronze, table: orders, load_type: MERGE_UPSERT, merge_keys: id }
schema_hints:
  - connection_name: landing
    table_name: orders
    hints:
      - { column_name: id, data_type: bigint, ordinal_position: "1" }
      - { column_name: amount, data_type: "decimal(18,2)", precision: "18", scale: 2, ordinal_position: 2 }
`;
    const provider = new InMemoryMetadataProvider({ document: parseMetadataText(text) });
    const [dataflow] = await provider.getDataflows();
    expect(dataflow?.dataflow_id).toBe('1c172c53-13ba-5273-8d8f-66e8d480ccf5');
    expect(dataflow?.source.connection.connection_type).toBe('file');
    expect(dataflow?.source.watermark_columns).toEqual(['updated_at', 'id']);
    expect(dataflow?.destination.load_type).toBe('merge_upsert');
    expect(dataflow?.destination.merge_keys).toEqual(['id']);
    expect(dataflow?.transform.schema_hints.map((item) => [item.column_name, item.precision])).toEqual([
      ['id', null],
      ['amount', 18],
    ]);
  });

  it('reference errors', () => {
    const [first] = fileDocument.dataflows as Array<Record<string, Record<string, unknown>>>;
    const withSource = (source: Record<string, unknown>) => ({
      connections: fileDocument.connections,
      dataflows: [{ ...first, source: { ...first!['source'], ...source } }],
    });
    expect(loadError(withSource({ connection_name: 'nope' }))).toBe('Connection not found: nope');
    expect(loadError(withSource({ connection: erpPostgres }))).toBe(
      "Dataflow '0b6f3c5e-5d7a-4f35-9d5b-6a1f0b2d9e41' source cannot define both 'connection_name' and 'connection'",
    );
    expect(
      loadError({
        connections: [erpPostgres, { ...erpPostgres, connection_id: 'other' }],
        dataflows: fileDocument.dataflows,
      }),
    ).toBe('Connection name is ambiguous: erp_postgres; use connection_id');
    expect(
      loadError({ connections: [], schema_hints: [{ connection_name: 'x', table_name: 't', hints: [] }] }),
    ).toBe('Schema hint group 0 references unknown connection: x (source: doc.yaml)');
    expect(loadError({ connections: [{ name: 'bad', connection_type: 'streaming', format: 'csv' }] })).toBe(
      "Invalid connection definition: bad (source: doc.yaml): Format 'csv' is not valid for connection_type 'streaming'. Allowed: none (streaming is not yet supported)",
    );
    expect(
      loadError({ dataflows: [{ name: 'f', source: { connection: erpPostgres }, destination: {} }] }),
    ).toMatch(/^Dataflow 'f' destination must have 'connection_name' or 'connection'$/);
    expect(loadError([])).toBe('Metadata document must contain a mapping at root level');
    expect(loadError({ other: [] })).toBe(
      'Metadata document must contain a connections, dataflows, or schema_hints section: doc.yaml',
    );
    expect(() => parseMetadataText('{ not: [yaml', 'yaml', 'x.yaml')).toThrow(
      'Cannot parse metadata config: x.yaml',
    );
  });
});
