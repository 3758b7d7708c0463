import * as schemas from '@aide/schemas';
import {
  fieldClassificationResource,
  systemKindResource,
  userResource,
  type ResourceDef,
} from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type AideClient,
  CollectionResource,
  ConflictError,
  CrudResource,
  DatasetsResource,
  FieldClassificationsResource,
  NotFoundError,
  AideBatchError,
  ValidationError,
  type System,
} from '../src/index.js';
import { adminClient, clientFor, createUser, recordingDispatcher, unique } from './helpers/backend.js';

const recorder = recordingDispatcher();
let client: AideClient;

beforeAll(() => {
  client = adminClient({ dispatcher: recorder.dispatcher });
});

afterAll(async () => {
  await client.close();
  await recorder.close();
});

/** A kind and a flavor for the tests that need a flavor. */
async function flavorFixture(): Promise<{ kindId: string; flavorId: string }> {
  const kind = await client.systemKinds.create({ code: unique('kind'), name: 'Fixture kind' });
  const flavor = await client.systemFlavors.create({
    code: unique('flavor'),
    name: 'Fixture flavor',
    kind_id: kind.id,
  });
  return { kindId: kind.id, flavorId: flavor.id };
}

describe('the client covers the route table', () => {
  /** The routes a resource object has, by method name. */
  function routesOf(resource: object): Record<string, boolean> {
    const has = (name: string) => typeof (resource as Record<string, unknown>)[name] === 'function';
    return {
      update: has('update'),
      delete: has('delete'),
      restore: has('restore'),
      createMany: has('createMany'),
    };
  }

  /** The routes a ResourceDef says the backend serves. */
  function routesServed(def: ResourceDef): Record<string, boolean> {
    const without = (def as { without?: readonly string[] }).without ?? [];
    return {
      update: !without.includes('update'),
      delete: !without.includes('delete'),
      restore: def.softDelete,
      createMany: def.batch,
    };
  }

  it('has one resource per ResourceDef of @aide/schemas, with exactly the routes the def has', () => {
    const resources = Object.values(client).filter(
      (value): value is CollectionResource<unknown, unknown> => value instanceof CollectionResource,
    );
    // Every def the package exports, whichever list (if any) it is filed in.
    const defs = (Object.values(schemas) as unknown[]).filter(
      (value: unknown): value is ResourceDef =>
        typeof value === 'object' &&
        value !== null &&
        'path' in value &&
        'notFound' in value &&
        'list' in value,
    );
    expect(defs).toEqual(expect.arrayContaining([...schemas.PROVIDER_RESOURCES, userResource]));
    for (const def of defs) {
      const resource = resources.find((r) => (r as unknown as { def: ResourceDef }).def === def);
      expect({ path: def.path, found: resource !== undefined }).toEqual({ path: def.path, found: true });
      expect({ path: def.path, ...routesOf(resource!) }).toEqual({ path: def.path, ...routesServed(def) });
    }
  });

  it('derives a collection client from its ResourceDef alone', () => {
    expect(routesOf(client.resource(systemKindResource))).toEqual({
      update: true,
      delete: true,
      restore: true,
      createMany: false,
    });
    const users = client.resource(userResource);
    expect(routesOf(users)).toEqual({ update: true, delete: false, restore: false, createMany: false });
    expect(users).not.toBeInstanceOf(CrudResource);
    expect(client.systems).toBeInstanceOf(CrudResource);

    // A collection's own class is the base; the routes it defines must be the collection's.
    expect(client.datasets).toBeInstanceOf(DatasetsResource);
    expect(client.datasets.constructor.name).toBe('DatasetsResource+restore');
    expect(client.fieldClassifications.constructor).toBe(FieldClassificationsResource);
    class WithDelete extends FieldClassificationsResource {
      delete(): void {}
    }
    expect(() => client.resource(fieldClassificationResource, WithDelete)).toThrow(
      /WithDelete has delete\(\) but the collection has no such route/,
    );
  });

  it('leaves absent routes out of the types', () => {
    // Checked by `tsc -p tsconfig.json --noEmit`: each line below must be a type error.
    const assertions = () => {
      // @ts-expect-error system kinds have no POST /batch
      void client.systemKinds.createMany([]);
      // @ts-expect-error users are never deleted (deactivate instead)
      void client.users.delete('x');
      // @ts-expect-error users have no soft delete
      void client.users.restore('x');
      // @ts-expect-error an update body is partial but still typed
      void client.systems.update('x', { code: 42 });
      // @ts-expect-error classifications are append-only
      void client.fieldClassifications.update('x', {});
      // @ts-expect-error crawl runs are never deleted
      void client.crawlRuns.delete('x');
      // @ts-expect-error type instances are deleted for good
      void client.typeInstances.restore('x');
      // @ts-expect-error datasets have no batch route
      void client.datasets.createMany([]);
      // @ts-expect-error a kafka dataset has no table_name
      void client.datasets.create({ kind: 'kafka', system_id: 'x', object_name: 'o', table_name: 't' });
      // @ts-expect-error resolve takes a type instance or a data type, not both
      void client.castRules.resolve({ type_instance_id: 'x', data_type_id: 'y', target_flavor: 'f' });
    };
    expect(typeof assertions).toBe('function');
    expect('createMany' in client.systemKinds).toBe(false);
    expect('delete' in client.users).toBe(false);
  });
});

describe('system kinds', () => {
  it('create, get, list, update, delete, restore', async () => {
    const code = unique('rdbms');
    const created = await client.systemKinds.create({ code, name: 'Relational', note: 'from the SDK' });
    expect(created).toMatchObject({
      code,
      name: 'Relational',
      note: 'from the SDK',
      row_version: 1,
      deleted_at: null,
    });

    expect(await client.systemKinds.get(created.id)).toEqual(created);

    const page = await client.systemKinds.list({ code, size: 5 });
    expect(page).toMatchObject({ total: 1, page: 1, size: 5, pages: 1 });
    expect(page.items.map((k) => k.id)).toEqual([created.id]);

    const updated = await client.systemKinds.update(created.id, {
      name: 'Relational DBs',
      row_version: created.row_version,
    });
    expect(updated).toMatchObject({ name: 'Relational DBs', row_version: 2 });

    const deleted = await client.systemKinds.delete(created.id);
    expect(deleted.id).toBe(created.id);
    expect(deleted.deleted_at).not.toBeNull();
    await expect(client.systemKinds.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.systemKinds.list({ code })).total).toBe(0);
    expect((await client.systemKinds.list({ code, include_deleted: true })).total).toBe(1);

    const restored = await client.systemKinds.restore(created.id);
    expect(restored).toMatchObject({ id: created.id, deleted_at: null });
    expect((await client.systemKinds.get(created.id)).name).toBe('Relational DBs');
  });

  it('walks more than three pages with for await, one request per page', async () => {
    const prefix = unique('paged');
    const codes: string[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await client.systemKinds.create({ code: `${prefix}-${i}`, name: `Kind ${i}` })).code);

    const before = recorder.requests.length;
    const seen: string[] = [];
    for await (const kind of client.systemKinds.list({ code__like: prefix, size: 2 })) seen.push(kind.code);
    expect(seen).toEqual(codes);
    const pageRequests = recorder.requests
      .slice(before)
      .filter((r) => r.startsWith('GET /api/v1/system-kinds?'));
    expect(pageRequests).toHaveLength(4);
    // The first page by number, naming `total` so that it carries next_cursor; the others by cursor.
    const queries = pageRequests.map((r) => new URL(`http://x${r.slice(4)}`).searchParams);
    expect(queries.map((q) => [q.get('page'), q.get('total'), q.has('cursor')])).toEqual([
      ['1', 'exact', false],
      [null, 'exact', true],
      [null, 'exact', true],
      [null, 'exact', true],
    ]);

    // iterate() is the same walk; pages() yields the envelopes; `page` sets where iteration starts.
    const iterated: string[] = [];
    for await (const kind of client.systemKinds.iterate({ code__like: prefix, size: 3, sort: ['-code'] }))
      iterated.push(kind.code);
    expect(iterated).toEqual([...codes].reverse());
    const pages: number[] = [];
    for await (const page of client.systemKinds.list({ code__like: prefix, size: 2, page: 2 }).pages())
      pages.push(page.page);
    expect(pages).toEqual([2, 3, 4]);
  });

  it('sends __in filters as comma-separated lists', async () => {
    const a = await client.systemKinds.create({ code: unique('in-a'), name: 'A' });
    const b = await client.systemKinds.create({ code: unique('in-b'), name: 'B' });
    const page = await client.systemKinds.list({ code__in: [a.code, b.code], sort: 'code' });
    expect(page.items.map((k) => k.code)).toEqual([a.code, b.code]);
  });
});

describe('update with ifMatch', () => {
  it('sends If-Match instead of a row_version in the body; a stale one is VERSION_CONFLICT', async () => {
    const kind = await client.systemKinds.create({ code: unique('etag'), name: 'ETag' });
    const renamed = await client.systemKinds.update(
      kind.id,
      { name: 'Renamed' },
      { ifMatch: kind.row_version },
    );
    expect(renamed).toMatchObject({ name: 'Renamed', row_version: kind.row_version + 1 });
    const stale = await client.systemKinds
      .update(kind.id, { name: 'Again' }, { ifMatch: kind.row_version })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ConflictError);
    expect((stale as ConflictError).errorCode).toBe('VERSION_CONFLICT');
    // Without types (JavaScript), a body with neither is the server's 428 PRECONDITION_REQUIRED.
    const untyped = client.systemKinds as unknown as { update(id: string, body: object): Promise<unknown> };
    await expect(untyped.update(kind.id, { name: 'x' })).rejects.toMatchObject({
      status: 428,
      errorCode: 'PRECONDITION_REQUIRED',
    });
    expect(() => client.systemKinds.update(kind.id, { name: 'x' }, { ifMatch: 0 })).toThrow(TypeError);
  });
});

describe('system flavors', () => {
  it('create, get, list by kind, update, delete, restore', async () => {
    const kind = await client.systemKinds.create({ code: unique('kind'), name: 'Kind' });
    const flavor = await client.systemFlavors.create({
      code: unique('postgres'),
      name: 'PostgreSQL',
      vendor: 'PostgreSQL Global Development Group',
      versions: ['16', '17'],
      kind_id: kind.id,
    });
    expect(flavor).toMatchObject({ kind_id: kind.id, versions: ['16', '17'] });
    expect(await client.systemFlavors.get(flavor.id)).toEqual(flavor);
    expect((await client.systemFlavors.list({ kind_id__in: [kind.id] })).items.map((f) => f.id)).toEqual([
      flavor.id,
    ]);

    const updated = await client.systemFlavors.update(flavor.id, {
      vendor: null,
      row_version: flavor.row_version,
    });
    expect(updated).toMatchObject({ vendor: null, row_version: 2 });

    await client.systemFlavors.delete(flavor.id);
    await expect(client.systemFlavors.get(flavor.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.systemFlavors.restore(flavor.id)).deleted_at).toBeNull();
  });
});

describe('credential refs', () => {
  it('create, get, list, update, delete, restore', async () => {
    const path = unique('secret/aide');
    const ref = await client.credentialRefs.create({ provider: 'vault', path, version: 3 });
    expect(ref).toMatchObject({ provider: 'vault', path, version: 3 });
    expect(await client.credentialRefs.get(ref.id)).toEqual(ref);
    expect((await client.credentialRefs.list({ provider: 'vault', path })).items).toHaveLength(1);

    const updated = await client.credentialRefs.update(ref.id, {
      version: null,
      row_version: ref.row_version,
    });
    expect(updated.version).toBeNull();

    expect((await client.credentialRefs.delete(ref.id)).deleted_at).not.toBeNull();
    expect((await client.credentialRefs.restore(ref.id)).deleted_at).toBeNull();
  });
});

describe('systems', () => {
  it('create, get, list, update, delete, restore', async () => {
    const { flavorId } = await flavorFixture();
    const ref = await client.credentialRefs.create({ provider: 'env', path: unique('PG_PASSWORD') });
    const code = unique('pg-prod');
    const system = await client.systems.create({
      code,
      name: 'Production PostgreSQL',
      flavor_id: flavorId,
      credential_ref_id: ref.id,
      tags: ['prod'],
      extra: { host: 'db.internal', port: 5432 },
    });
    expect(system).toMatchObject({
      code,
      is_active: true,
      tags: ['prod'],
      extra: { host: 'db.internal', port: 5432 },
    });
    expect(await client.systems.get(system.id)).toEqual(system);
    expect(
      (await client.systems.list({ flavor_id: flavorId, is_active: true })).items.map((s) => s.id),
    ).toEqual([system.id]);

    const updated = await client.systems.update(system.id, {
      is_active: false,
      row_version: system.row_version,
    });
    expect(updated).toMatchObject({ is_active: false, row_version: 2 });

    await client.systems.delete(system.id);
    expect((await client.systems.restore(system.id)).id).toBe(system.id);
  });

  it('createMany sends more than 500 items as chunks of at most 500, one POST /batch each', async () => {
    const { flavorId } = await flavorFixture();
    const prefix = unique('bulk');
    const items = Array.from({ length: 501 }, (_, i) => ({
      code: `${prefix}-${String(i).padStart(3, '0')}`,
      name: `Bulk ${i}`,
      flavor_id: flavorId,
    }));

    const before = recorder.count('POST /api/v1/systems/batch');
    const chunks: number[] = [];
    const created = await client.systems.createMany(items, {
      onChunk: (chunk, index) => chunks.push(index, chunk.length),
    });
    expect(recorder.count('POST /api/v1/systems/batch') - before).toBe(2);
    expect(chunks).toEqual([0, 500, 1, 1]);
    expect(created.map((s) => s.code)).toEqual(items.map((i) => i.code));

    // Every page of them, 100 at a time (6 pages).
    let count = 0;
    for await (const system of client.systems.list({ flavor_id: flavorId, size: 100 })) {
      expect(system.code.startsWith(prefix)).toBe(true);
      count++;
    }
    expect(count).toBe(501);

    expect(await client.systems.createMany([])).toEqual([]);
    await expect(client.systems.createMany(items, { chunkSize: 501 })).rejects.toThrow(RangeError);
  });

  it('createMany: a failing chunk is an AideBatchError naming the chunk, the row and what stays committed', async () => {
    const { flavorId } = await flavorFixture();
    const prefix = unique('partial');
    const items = [0, 1, 2, 3].map((i) => ({ code: `${prefix}-${i}`, name: `P ${i}`, flavor_id: flavorId }));
    const committed: string[] = [];
    // Chunks of 2: items 0-1 are committed, item 3 of chunk 1 (items 2-3) is invalid.
    const invalid = await client.systems
      .createMany([...items.slice(0, 3), { ...items[3]!, name: '' }], {
        chunkSize: 2,
        onChunk: (chunk) => committed.push(...chunk.map((s) => s.code)),
      })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(AideBatchError);
    const batchError = invalid as AideBatchError<System>;
    expect(batchError.cause).toBeInstanceOf(ValidationError);
    expect(batchError.failedChunk).toEqual({ index: 1, start: 2, end: 4 });
    expect(batchError.rowIndexes).toEqual([3]);
    expect(batchError.rowIndex).toBe(3);
    expect(batchError.committed).toEqual([{ index: 0, start: 0, end: 2 }]);
    expect(batchError.created.map((s) => s.code)).toEqual([items[0]!.code, items[1]!.code]);
    expect(committed).toEqual([items[0]!.code, items[1]!.code]);
    expect((await client.systems.list({ code__like: prefix })).total).toBe(2);

    // A duplicate of a committed row: the server names no row, the chunk and the cause say it.
    const duplicate = (await client.systems
      .createMany([items[2]!, items[0]!], { chunkSize: 1 })
      .catch((e: unknown) => e)) as AideBatchError<System>;
    expect(duplicate.cause).toBeInstanceOf(ConflictError);
    expect(duplicate.failedChunk).toEqual({ index: 1, start: 1, end: 2 });
    expect(duplicate.rowIndexes).toEqual([]);
    expect(duplicate.created.map((s) => s.code)).toEqual([items[2]!.code]);
  });

  it('createMany chunks by body size too: 500 rows with 3 KB of extra each fit under the body limit', async () => {
    const { flavorId } = await flavorFixture();
    const prefix = unique('wide');
    const items = Array.from({ length: 500 }, (_, i) => ({
      code: `${prefix}-${i}`,
      name: `Wide ${i}`,
      flavor_id: flavorId,
      extra: { blob: 'x'.repeat(3000) },
    }));
    const before = recorder.count('POST /api/v1/systems/batch');
    const sizes: number[] = [];
    const created = await client.systems.createMany(items, { onChunk: (chunk) => sizes.push(chunk.length) });
    expect(created.map((s) => s.code)).toEqual(items.map((i) => i.code));
    // 1.5 MB of JSON: two requests at least, each under the 1 MiB limit.
    const requests = recorder.count('POST /api/v1/systems/batch') - before;
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(sizes).toHaveLength(requests);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(500);
    for (const size of sizes) expect(size * 3000).toBeLessThan(1024 * 1024);

    // A row too large for any request is refused before anything is sent.
    await expect(
      client.systems.createMany([
        { ...items[0]!, code: unique('huge'), extra: { blob: 'x'.repeat(2 << 20) } },
      ]),
    ).rejects.toThrow(RangeError);
  });
});

describe('users', () => {
  it('create, get, list, update', async () => {
    const { username, user } = await createUser(client);
    expect(user).toMatchObject({
      email: username,
      is_superuser: false,
      is_active: true,
      user_type: 'regular',
    });
    expect(await client.users.get(user.id)).toEqual(user);
    expect((await client.users.list({ email: username })).items.map((u) => u.id)).toEqual([user.id]);
    const updated = await client.users.update(user.id, {
      full_name: 'Renamed',
      user_type: 'technical',
      row_version: user.row_version,
    });
    expect(updated).toMatchObject({ full_name: 'Renamed', user_type: 'technical' });
  });

  it('me and updateMe; after a password change the client logs in with the new password', async () => {
    const credentials = await createUser(client);
    const own = clientFor(credentials);
    try {
      const me = await own.users.me();
      expect(me.email).toBe(credentials.username);
      const renamed = await own.users.updateMe({ full_name: 'Self-named', row_version: me.row_version });
      expect(renamed.full_name).toBe('Self-named');

      // Changing the password ends every session, this client's too; it logs in again by itself.
      const password = 'a-brand-new-password';
      await own.users.updateMe({ password, current_password: credentials.password });
      expect((await own.users.me()).full_name).toBe('Self-named');
      const fresh = clientFor({ username: credentials.username, password });
      expect((await fresh.users.me()).id).toBe(me.id);
      await fresh.close();
    } finally {
      await own.close();
    }
  });
});
