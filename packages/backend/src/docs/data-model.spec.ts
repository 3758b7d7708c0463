import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { DataSource } from 'typeorm';
import { TEMPLATE_DB } from '../../test/test-users.mjs';
import { createDataSource } from '../database/data-source.js';
import { quoteIdent, withDatabase } from '../database/naming.js';
import { withClient } from '../database/pg-client.js';
import { chartDbDiagramSchema, type ChartDbDiagram, type ChartDbTable } from './chartdb-format.js';
import {
  buildDataModel,
  DATA_MODEL_FILE,
  DATA_MODEL_STALE_MESSAGE,
  serializeDataModel,
} from './data-model.js';

const serverUrl = process.env['AIDE_TEST_SERVER_URL'] ?? '';
const database = `aide_test_data_model_${randomBytes(6).toString('hex')}`;

async function admin(sql: string): Promise<void> {
  await withClient(serverUrl, (client) => client.query(sql));
}

/** Where two texts first differ, to point at the change in the failure message. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((text, i) => text !== got[i]);
  const at = line === -1 ? want.length : line;
  return `first difference at line ${at + 1}: committed ${JSON.stringify(got[at] ?? '<end>')}, schema gives ${JSON.stringify(want[at] ?? '<end>')}`;
}

function table(model: ChartDbDiagram, name: string): ChartDbTable {
  const found = model.tables.find((t) => t.name === name);
  if (!found) throw new Error(`table ${name} missing from the data model`);
  return found;
}

function fieldName(model: ChartDbDiagram, tableId: string, fieldId: string): string {
  const owner = model.tables.find((t) => t.id === tableId);
  return `${owner?.name}.${owner?.fields.find((f) => f.id === fieldId)?.name}`;
}

describe('docs/AIDE_data_model.json', () => {
  let dataSource: DataSource;
  let model: ChartDbDiagram;

  // A clone of the migrated template rather than the template itself: while anyone is connected to a
  // template, the other test files' CREATE DATABASE … TEMPLATE fails.
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${quoteIdent(database)} TEMPLATE ${quoteIdent(TEMPLATE_DB)}`);
    dataSource = createDataSource({ url: withDatabase(serverUrl, database), poolSize: 2 });
    await dataSource.initialize();
    model = await buildDataModel(dataSource);
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
  });

  it('matches the migrated schema', async () => {
    const expected = serializeDataModel(model);
    const committed = await readFile(DATA_MODEL_FILE, 'utf8').catch(() => '');
    if (committed !== expected) {
      throw new Error(`${DATA_MODEL_STALE_MESSAGE}\n${firstDifference(expected, committed)}`);
    }
  });

  it('is generated deterministically', async () => {
    expect(serializeDataModel(await buildDataModel(dataSource))).toBe(serializeDataModel(model));
  });

  it("fits ChartDB's import schema, with unique ids and resolvable references", () => {
    const parsed = chartDbDiagramSchema.safeParse(model);
    expect(parsed.error?.issues ?? []).toEqual([]);

    const ids = [
      ...model.tables.flatMap((t) => [
        t.id,
        ...t.fields.map((f) => f.id),
        ...t.indexes.map((i) => i.id),
        ...(t.checkConstraints ?? []).map((c) => c.id),
      ]),
      ...model.relationships.map((r) => r.id),
    ];
    expect(new Set(ids).size).toBe(ids.length);

    const fieldsOf = new Map(model.tables.map((t) => [t.id, new Set(t.fields.map((f) => f.id))]));
    for (const t of model.tables) {
      for (const index of t.indexes) {
        expect(index.fieldIds.length).toBeGreaterThan(0);
        for (const id of index.fieldIds) expect(fieldsOf.get(t.id)?.has(id)).toBe(true);
      }
    }
    for (const r of model.relationships) {
      expect(fieldsOf.get(r.sourceTableId)?.has(r.sourceFieldId)).toBe(true);
      expect(fieldsOf.get(r.targetTableId)?.has(r.targetFieldId)).toBe(true);
    }
  });

  it('holds every entity table and column', () => {
    const missing = dataSource.entityMetadatas.flatMap((entity) => {
      const t = model.tables.find((candidate) => candidate.name === entity.tableName);
      if (!t) return [entity.tableName];
      return entity.columns
        .filter((c) => !t.fields.some((f) => f.name === c.databaseName))
        .map((c) => `${entity.tableName}.${c.databaseName}`);
    });
    expect(missing).toEqual([]);
    expect(model.tables.map((t) => t.name)).not.toContain('typeorm_migrations');
  });

  it('describes tables, keys, indexes and relationships as the migrations create them', () => {
    for (const name of ['datasets', 'dataset_rdbms', 'field_bindings', 'type_instances', 'users'])
      table(model, name);

    const relationships = model.relationships.map(
      (r) =>
        `${fieldName(model, r.sourceTableId, r.sourceFieldId)} -> ${fieldName(model, r.targetTableId, r.targetFieldId)}` +
        ` ${r.sourceCardinality}:${r.targetCardinality}`,
    );
    expect(relationships).toContain('field_bindings.type_instance_id -> type_instances.id many:one');
    expect(relationships).toContain('dataset_rdbms.id -> datasets.id one:one');

    const datasets = table(model, 'datasets');
    const id = datasets.fields.find((f) => f.name === 'id');
    expect(id).toMatchObject({
      primaryKey: true,
      nullable: false,
      type: { id: 'uuid' },
      default: 'gen_random_uuid()',
    });
    expect(datasets.fields.find((f) => f.name === 'created_at')?.type).toEqual({
      id: 'timestamptz',
      name: 'timestamptz',
    });
    const partial = datasets.indexes.find((i) => i.name === 'uq_datasets_system_object_active');
    expect(partial).toMatchObject({ unique: true });
    expect(partial?.fieldIds).toHaveLength(2);
    expect(datasets.comments).toContain('uq_datasets_system_object_active');
    expect(datasets.comments).toContain('WHERE (deleted_at IS NULL)');

    const arrays = model.tables.flatMap((t) => t.fields.filter((f) => f.isArray));
    expect(arrays.length).toBeGreaterThan(0);
    expect(model.tables.flatMap((t) => t.fields).some((f) => f.type.id === 'jsonb')).toBe(true);
  });
});
