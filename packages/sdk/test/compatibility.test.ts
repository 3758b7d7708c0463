// Compatibility levels through the SDK against the real backend (ADR 0048): a refused publish is the
// SDK's typed ConflictError with the violations in its details, the check answers the same without
// writing, and a superuser's forced publish is kept in the version history.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AideClient, ConflictError, PermissionDeniedError } from '../src/index.js';
import { adminClient, clientFor, createUser, unique } from './helpers/backend.js';

let admin: AideClient;
let regular: AideClient;
let systemId: string;

beforeAll(async () => {
  admin = adminClient();
  regular = clientFor(await createUser(admin));
  const { items } = await admin.systemFlavors.list({ code: 'postgres14' });
  if (items.length !== 1) throw new Error('flavor postgres14 is not seeded: is AIDE_SEED_ON_START on?');
  const system = await admin.systems.create({
    code: unique('compat-db'),
    name: 'Compatibility test database',
    flavor_id: items[0]!.id,
  });
  systemId = system.id;
});

afterAll(async () => {
  await admin.close();
  await regular.close();
});

const base = {
  columns: [
    { name: 'id', nullable: false, type: { data_type: 'integer' } },
    { name: 'legacy', nullable: true, type: { data_type: 'text' } },
  ],
};
const withoutLegacy = { columns: [base.columns[0]!] };

async function datasetAtFull(): Promise<string> {
  const name = unique('orders');
  const dataset = await admin.datasets.create({
    kind: 'rdbms',
    system_id: systemId,
    object_name: `public.${name}`,
    schema_name: 'public',
    table_name: name,
  });
  await admin.datasets.publishSchemaVersion(dataset.id, base);
  const level = await admin.compatibility.setDatasetCompatibility(dataset.id, 'FULL');
  expect(level).toMatchObject({ level: 'FULL', effective_level: 'FULL', source: 'dataset' });
  return dataset.id;
}

describe('compatibility levels', () => {
  it('reads and sets the registry and system levels', async () => {
    expect(await regular.compatibility.getRegistryCompatibility()).toEqual({ level: 'NONE' });
    expect(await admin.compatibility.setSystemCompatibility(systemId, 'BACKWARD')).toEqual({
      system_id: systemId,
      level: 'BACKWARD',
      effective_level: 'BACKWARD',
    });
    expect(await regular.compatibility.getSystemCompatibility(systemId)).toMatchObject({ level: 'BACKWARD' });
    await admin.compatibility.setSystemCompatibility(systemId, null);
    await expect(regular.compatibility.setRegistryCompatibility('FULL')).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });

  it('a refused publish is a ConflictError with every violation; the check says the same', async () => {
    const id = await datasetAtFull();
    const check = await regular.compatibility.checkSchemaVersion(id, withoutLegacy);
    expect(check).toMatchObject({ accepted: false, level: 'FULL', compared_versions: [1] });
    expect(check.violations).toEqual([
      expect.objectContaining({
        version_num: 1,
        direction: 'forward',
        rule: 'COLUMN_REMOVED',
        name: 'legacy',
      }),
    ]);
    const error = await regular.datasets.publishSchemaVersion(id, withoutLegacy).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, errorCode: 'DATASET_SCHEMA_INCOMPATIBLE' });
    expect((error as ConflictError).details).toMatchObject({ violations: check.violations });
    expect((await regular.compatibility.getDatasetCompatibility(id)).effective_level).toBe('FULL');

    const bulk = await regular.compatibility.checkSchemaVersions([{ dataset_id: id, ...withoutLegacy }]);
    expect(bulk.summary).toEqual({ accepted: 0, refused: 1, failed: 0 });
  });

  it('a superuser forces it with a reason, kept in the history', async () => {
    const id = await datasetAtFull();
    const reason = 'legacy column retired';
    const published = await admin.datasets.publishSchemaVersion(id, {
      ...withoutLegacy,
      force_reason: reason,
    });
    expect(published.version.compatibility_override).toMatchObject({ reason, level: 'FULL' });
    const [latest] = await regular.datasets.schemaVersions(id);
    expect(latest!.compatibility_override).toMatchObject({
      reason,
      violations: [expect.objectContaining({ rule: 'COLUMN_REMOVED' })],
    });
  });
});
