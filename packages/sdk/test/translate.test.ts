// datasets.translateSchemaVersion against the real backend (issue 25 §2): a version rendered into
// mysql8 and sqlite3 DDL with its report, strict mode as a typed error, a format the flavor lacks.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AideClient, NotFoundError, ValidationError } from '../src/index.js';
import { adminClient, unique } from './helpers/backend.js';

let client: AideClient;
let datasetId: string;

beforeAll(async () => {
  client = adminClient();
  const flavor = (await client.systemFlavors.list({ code: 'postgres14' })).items[0]!;
  const system = await client.systems.create({ code: unique('pg'), name: 'PG', flavor_id: flavor.id });
  const dataset = await client.datasets.create({
    kind: 'rdbms',
    system_id: system.id,
    object_name: 'orders',
    schema_name: 'shop',
    table_name: 'orders',
  });
  datasetId = dataset.id;
  await client.datasets.publishSchemaVersion(datasetId, {
    columns: [
      { name: 'id', nullable: false, type: { data_type: 'bigint' } },
      { name: 'note', type: { data_type: 'text' }, comment: 'free text' },
    ],
    primary_key: { name: 'orders_pkey', columns: ['id'] },
  });
});
afterAll(async () => {
  await client.close();
});

describe('datasets.translateSchemaVersion', () => {
  it('renders a version as mysql8 DDL with its columns and omissions', async () => {
    const t = await client.datasets.translateSchemaVersion(datasetId, 1, { flavor: 'mysql8' });
    expect(t).toMatchObject({
      target_flavor: 'mysql8',
      format: 'ddl',
      media_type: 'application/sql',
      lossy: false,
    });
    expect(t.content).toBe(
      "CREATE TABLE `orders` (\n  `id` bigint NOT NULL,\n  `note` longtext NULL COMMENT 'free text',\n  PRIMARY KEY (`id`)\n);\n",
    );
    expect(t.columns.map((c) => c.target_type)).toEqual(['bigint', 'longtext']);
    expect(t.omissions).toEqual([]);
  });

  it('strict: a lossy translation is a ValidationError TRANSLATION_LOSSY', async () => {
    const sqlite = await client.datasets.translateSchemaVersion(datasetId, 1, {
      flavor: 'sqlite3',
      strict: false,
    });
    expect(sqlite.omissions).toEqual([{ kind: 'comment', path: 'note', reason: 'SQLite has no comments.' }]);
    const error = await client.datasets
      .translateSchemaVersion(datasetId, 1, { flavor: 'sqlite3', format: 'ddl', strict: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ errorCode: 'TRANSLATION_LOSSY' });
  });

  it('a format the flavor lacks, a missing version', async () => {
    await expect(
      client.datasets.translateSchemaVersion(datasetId, 1, { flavor: 'mysql8', format: 'protobuf' }),
    ).rejects.toMatchObject({ errorCode: 'TRANSLATION_FORMAT_UNSUPPORTED' });
    await expect(
      client.datasets.translateSchemaVersion(datasetId, 2, { flavor: 'mysql8' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(() => client.datasets.translateSchemaVersion(datasetId, 0, { flavor: 'mysql8' })).toThrow(
      TypeError,
    );
  });
});
