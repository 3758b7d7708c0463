// The stored read shapes of schema versions (ADR 0029): the system snapshot sends each version as
// stored at publish, and answers exactly what reading the version column by column answers — the same
// JSON text — with the live parts joined: current PII tags, and type texts and codes of data types a
// superuser edited since (the shape is then read again and rewritten). A version without a shape
// (published before they existed) is read the old way and its shape stored.
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
const datasets: Row[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
  for (const name of ['a', 'b', 'c']) {
    const d = await createDataset(ctx, system.id);
    ok(
      await publish(ctx, d.id, {
        columns: [
          { ...column('id', 'bigint', undefined, false), native_type: 'bigint', comment: 'key' },
          { ...column(`email_${name}`, 'varchar', { length: 200 }), native_type: 'character varying(200)' },
          {
            ...column('tags', 'array'),
            type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
          },
        ],
        table_kind: 'table',
        primary_key: { name: `${name}_pkey`, columns: ['id'] },
      }),
      201,
    );
    datasets.push(d);
  }
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

const snapshot = () => ctx.request('GET', `${API}/systems/${system.id}/snapshot`, { token: ctx.userToken });

/** The page the snapshot answered before read shapes: each dataset and version as their own routes read them. */
async function expectedPage(): Promise<string> {
  const ordered = [...datasets].sort((a, b) => (a.id < b.id ? -1 : 1));
  // The datasets have no flavor of their own: each item names the system's (ADR 0045).
  const flavor = ok(
    await ctx.request('GET', `${API}/system-flavors/${system.flavor_id}`, { token: ctx.userToken }),
  );
  const items = [];
  for (const d of ordered) {
    const dataset = ok(await ctx.request('GET', `${API}/datasets/${d.id}`, { token: ctx.userToken }));
    const history: Row[] = ok(
      await ctx.request('GET', `${API}/datasets/${d.id}/schema-versions`, { token: ctx.userToken }),
    );
    const newest = Math.max(...history.map((h) => h.version_num as number));
    const version = ok(
      await ctx.request('GET', `${API}/datasets/${d.id}/schema-versions/${newest}`, { token: ctx.userToken }),
    );
    items.push({ dataset, flavor_id: flavor.id, flavor_code: flavor.code, version });
  }
  return JSON.stringify({ system_id: system.id, items, next_cursor: null });
}

async function expectSnapshotAsRead(): Promise<Row> {
  const response = await snapshot();
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(JSON.stringify(response.body)).toBe(await expectedPage());
  return response.body;
}

const shapes = async (): Promise<Row[]> =>
  ctx.dataSource.query(
    `SELECT r.dataset_schema_id, r.data_types FROM schema_version_read_shapes r
     JOIN dataset_schemas s ON s.id = r.dataset_schema_id JOIN datasets d ON d.id = s.dataset_id
     WHERE d.system_id = $1 ORDER BY r.dataset_schema_id`,
    [system.id],
  );

describe('stored read shapes', () => {
  it('are written by the publish and answered as the version routes read the versions', async () => {
    const stored = await shapes();
    expect(stored).toHaveLength(3);
    const varchar = await dataTypeOf(ctx, 'postgres14', 'varchar');
    expect(stored[0].data_types[varchar.id]).toBe(varchar.row_version);
    const page = await expectSnapshotAsRead();
    expect(page.items.every((i: Row) => i.version.columns.every((c: Row) => c.pii_tags === null))).toBe(true);
  });

  it('carry the current PII tags of classified fields', async () => {
    const page = (await snapshot()).body;
    const email = page.items[0].version.columns[1];
    for (const tags of [['email'], ['email', 'contact'], []]) {
      ok(
        await ctx.request('POST', `${API}/field-classifications`, {
          token: ctx.userToken,
          body: { field_id: email.field_id, pii_tags: tags },
        }),
        201,
      );
      const again = await expectSnapshotAsRead();
      expect(again.items[0].version.columns[1].pii_tags).toEqual(tags);
      expect(again.items[1].version.columns[1].pii_tags).toBeNull();
    }
  });

  it('follow an edited data type: the versions are read again and their shapes rewritten', async () => {
    const varchar = await dataTypeOf(ctx, 'postgres14', 'varchar');
    const edited = ok(
      await ctx.request('PATCH', `${API}/data-types/${varchar.id}`, {
        token: ctx.adminToken,
        body: {
          render_template: 'character varying{% if length is defined %}({{ length }}){% endif %}',
          row_version: varchar.row_version,
        },
      }),
    );
    const page = await expectSnapshotAsRead();
    expect(page.items[0].version.columns[1].rendered_type).toBe('character varying(200)');
    // Rewritten after the page: the next read uses them again.
    const stored = await shapes();
    expect(stored.every((s) => s.data_types[varchar.id] === edited.row_version)).toBe(true);
    await expectSnapshotAsRead();
  });

  it('are stored on the first read of a version that has none', async () => {
    await ctx.dataSource.query(
      `DELETE FROM schema_version_read_shapes WHERE dataset_schema_id IN (
         SELECT s.id FROM dataset_schemas s JOIN datasets d ON d.id = s.dataset_id WHERE d.system_id = $1)`,
      [system.id],
    );
    await expectSnapshotAsRead();
    expect(await shapes()).toHaveLength(3);
    await expectSnapshotAsRead();
  });
});
