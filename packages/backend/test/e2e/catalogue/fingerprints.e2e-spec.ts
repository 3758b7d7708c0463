// The light side of the system snapshot (ADR 0032): per dataset its current version's structural
// fingerprint, stored with the version's read shape, and the snapshot items of chosen datasets. The
// fingerprint is the one `@aide/schemas/fingerprint` computes of the version as read; it does not move
// with PII tags or a no-op publish, moves with a new version, is unknown (null) while an edited data
// type makes the shape stale or the shape predates fingerprints, and comes back once the version is
// read in full.
import { schemaVersionFingerprint } from '@aide/schemas/fingerprint';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  createPgSystem,
  dataTypeOf,
  publish,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { ok } from '../../helpers/factories.js';
import { createTestContext, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;
let other: Row;
const datasets: Row[] = [];
let unpublished: Row;

const body = (name: string, comment = 'key') => ({
  columns: [
    { ...column('id', 'bigint', undefined, false), native_type: 'bigint', comment },
    { ...column(`email_${name}`, 'varchar', { length: 200 }), native_type: 'character varying(200)' },
    {
      ...column('tags', 'array'),
      type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
    },
  ],
  table_kind: 'table',
  primary_key: { name: `${name}_pkey`, columns: ['id'] },
  indexes: [{ name: `${name}_email_idx`, columns: [`email_${name}`] }],
});

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
  other = await createPgSystem(ctx);
  for (const name of ['a', 'b', 'c']) {
    const d = await createDataset(ctx, system.id);
    ok(await publish(ctx, d.id, body(name)), 201);
    datasets.push(d);
  }
  unpublished = await createDataset(ctx, system.id);
  const elsewhere = await createDataset(ctx, other.id);
  ok(await publish(ctx, elsewhere.id, body('x')), 201);
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

const get = (path: string) => ctx.request('GET', `${API}${path}`, { token: ctx.userToken });
const fingerprints = async (query = ''): Promise<Row> =>
  ok(await get(`/systems/${system.id}/snapshot/fingerprints${query}`));
const versions = (ids: string[], systemId = system.id) =>
  ctx.request('POST', `${API}/systems/${systemId}/snapshot/versions`, {
    token: ctx.userToken,
    body: { dataset_ids: ids },
  });

/** Each dataset's fingerprint computed of its current version as the version route reads it. */
async function expectedFingerprints(): Promise<Map<string, string>> {
  const expected = new Map<string, string>();
  for (const d of datasets) {
    const history: Row[] = ok(await get(`/datasets/${d.id}/schema-versions`));
    const newest = Math.max(...history.map((h) => h.version_num as number));
    const version = ok(await get(`/datasets/${d.id}/schema-versions/${newest}`));
    expected.set(d.id, schemaVersionFingerprint(version));
  }
  return expected;
}

const byId = (page: Row) => new Map<string, Row>(page.items.map((i: Row) => [i.dataset_id, i]));

describe('the fingerprint listing of a system', () => {
  it("gives every dataset's current version number and the fingerprint of that version as read", async () => {
    const page = await fingerprints();
    expect(page.next_cursor).toBeNull();
    const ids = [...datasets, unpublished].map((d) => d.id).sort();
    expect(page.items.map((i: Row) => i.dataset_id)).toEqual(ids);
    const expected = await expectedFingerprints();
    const items = byId(page);
    for (const d of datasets) {
      expect(items.get(d.id)).toEqual({
        dataset_id: d.id,
        kind: 'rdbms',
        object_name: d.object_name,
        schema_name: d.schema_name,
        table_name: d.table_name,
        version_num: 1,
        fingerprint: expected.get(d.id),
      });
    }
    expect(items.get(unpublished.id)).toMatchObject({ version_num: null, fingerprint: null });
    // Structurally different versions, different fingerprints.
    expect(new Set(expected.values()).size).toBe(3);
  });

  it('pages by cursor', async () => {
    const first = await fingerprints('?limit=3');
    expect(first.items).toHaveLength(3);
    const second = await fingerprints(`?limit=3&cursor=${first.next_cursor}`);
    expect(second.items).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    expect((await get(`/systems/${system.id}/snapshot/fingerprints?limit=10001`)).status).toBe(422);
  });

  it('stays with PII tags and a no-op publish, and moves with a new version', async () => {
    const before = byId(await fingerprints());
    const [a] = datasets;
    const version = ok(await get(`/datasets/${a.id}/schema-versions/1`));
    ok(
      await ctx.request('POST', `${API}/field-classifications`, {
        token: ctx.userToken,
        body: { field_id: version.columns[1].field_id, pii_tags: ['email'] },
      }),
      201,
    );
    const noop = ok(await publish(ctx, a.id, body('a')));
    expect(noop.created).toBe(false);
    expect(byId(await fingerprints())).toEqual(before);

    ok(await publish(ctx, a.id, body('a', 'the key')), 201);
    const after = byId(await fingerprints());
    expect(after.get(a.id)?.version_num).toBe(2);
    expect(after.get(a.id)?.fingerprint).not.toBe(before.get(a.id)?.fingerprint);
    expect(after.get(a.id)?.fingerprint).toBe((await expectedFingerprints()).get(a.id));
    expect(after.get(datasets[1].id)).toEqual(before.get(datasets[1].id));
  });

  it('is unknown while an edited data type makes the shapes stale, until the versions are read', async () => {
    const before = byId(await fingerprints());
    const varchar = await dataTypeOf(ctx, 'postgres14', 'varchar');
    ok(
      await ctx.request('PATCH', `${API}/data-types/${varchar.id}`, {
        token: ctx.adminToken,
        body: { description: 'edited by the fingerprint test', row_version: varchar.row_version },
      }),
    );
    const stale = await fingerprints();
    expect(stale.items.every((i: Row) => i.fingerprint === null)).toBe(true);
    const read = ok(await versions([datasets[0].id]));
    expect(read.items).toHaveLength(1);
    const after = byId(await fingerprints());
    // Read again: the same structure, so the same fingerprint.
    expect(after.get(datasets[0].id)?.fingerprint).toBe(before.get(datasets[0].id)?.fingerprint);
    expect(after.get(datasets[1].id)?.fingerprint).toBeNull();
    ok(await get(`/systems/${system.id}/snapshot`));
    expect(byId(await fingerprints())).toEqual(before);
  });

  it('is unknown for shapes stored before fingerprints, until the versions are read', async () => {
    const before = byId(await fingerprints());
    await ctx.dataSource.query(`UPDATE schema_version_read_shapes SET fingerprint = NULL`);
    expect((await fingerprints()).items.every((i: Row) => i.fingerprint === null)).toBe(true);
    ok(await get(`/systems/${system.id}/snapshot`));
    expect(byId(await fingerprints())).toEqual(before);
  });

  it('answers 404 for an unknown system', async () => {
    const response = await get(`/systems/00000000-0000-4000-8000-000000000000/snapshot/fingerprints`);
    expect(response.status).toBe(404);
    expect(response.body.error_code).toBe('SYSTEM_NOT_FOUND');
  });
});

describe('the snapshot items of chosen datasets', () => {
  it('are the snapshot page items of those datasets of the system, in id order', async () => {
    const snapshot = ok(await get(`/systems/${system.id}/snapshot`));
    const elsewhere = ok(await get(`/datasets?system_id=${other.id}`)).items[0];
    const chosen = [datasets[2].id, unpublished.id, datasets[0].id];
    const read = ok(
      await versions([...chosen, elsewhere.id, '00000000-0000-4000-8000-000000000000', datasets[0].id]),
    );
    expect(read.system_id).toBe(system.id);
    expect(read.next_cursor).toBeNull();
    expect(read.items).toEqual(snapshot.items.filter((i: Row) => chosen.includes(i.dataset.id)));
  });

  it('are at most 1,000 a request', async () => {
    const ids = Array.from({ length: 1001 }, () => datasets[0].id);
    expect((await versions(ids)).status).toBe(422);
    expect((await versions([])).status).toBe(422);
  });
});
