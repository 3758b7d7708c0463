// Workspaces and connection profiles: a profile must make a valid DataCoolie connection on its system
// (reference §8.2, §8.7); secrets are credential references, never values.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createSystemFor, flavorByCode, seedReference } from '../../helpers/catalogue.js';
import { createCredentialRef, createSystem, ok, unique } from '../../helpers/factories.js';
import {
  createProfile,
  createProfileRequest,
  createWorkspace,
  copyBody,
  pipelineFixture,
} from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

describe('workspaces and connection profiles', () => {
  let ctx: TestContext;
  let pgSystemId: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    pgSystemId = (await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id)).id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** A database profile body on the PostgreSQL system. */
  const dbBody = (workspaceId: string, overrides: Record<string, unknown> = {}) => ({
    workspace_id: workspaceId,
    system_id: pgSystemId,
    name: unique('c'),
    connection_type: 'database',
    format: 'sql',
    ...overrides,
  });

  it('creates workspaces with a URL-safe unique code; anonymous callers get 401', async () => {
    const ws = await createWorkspace(ctx, { description: 'Analytics pipelines' });
    expect(ws).toMatchObject({ description: 'Analytics pipelines', deleted_at: null, row_version: 1 });
    expectEnvelope(
      await ctx.request('POST', `${API}/workspaces`, {
        token: ctx.userToken,
        body: { code: ws.code, name: 'x' },
      }),
      409,
      'WORKSPACE_ALREADY_EXISTS',
    );
    for (const code of ['has space', '-lead', 'a/b', '']) {
      expectEnvelope(
        await ctx.request('POST', `${API}/workspaces`, { token: ctx.userToken, body: { code, name: 'x' } }),
        422,
        'VALIDATION_ERROR',
      );
    }
    expectEnvelope(await ctx.request('GET', `${API}/workspaces`, {}), 401, 'UNAUTHORIZED');
  });

  it('creates a database profile and reads it back with its secrets as references', async () => {
    const ws = await createWorkspace(ctx);
    const ref = await createCredentialRef(ctx, {
      provider: 'https://aide-kv.vault.azure.net/',
      path: 'erp-reader-password',
    });
    const profile = await createProfile(ctx, ws.id, pgSystemId, {
      name: 'erp_postgres',
      database: 'erp',
      configure: { read_options: { fetchsize: 10000 }, username: 'reader' },
      secrets: [{ configure_field: 'password', credential_ref_id: ref.id }],
    });
    expect(profile).toMatchObject({
      workspace_id: ws.id,
      system_id: pgSystemId,
      name: 'erp_postgres',
      connection_type: 'database',
      format: 'sql',
      database: 'erp',
      use_schema_hint: true,
      is_active: true,
      secrets: [{ configure_field: 'password', credential_ref_id: ref.id }],
    });
    const read = ok(
      await ctx.request('GET', `${API}/connection-profiles/${profile.id}`, { token: ctx.userToken }),
    );
    expect(read).toEqual(profile);
    const listed = ok(
      await ctx.request('GET', `${API}/connection-profiles?workspace_id=${ws.id}&connection_type=database`, {
        token: ctx.userToken,
      }),
    );
    expect(listed.items.map((p: { id: string }) => p.id)).toEqual([profile.id]);
  });

  it('never stores a secret value: secret configure keys are refused unless a credential reference fills them', async () => {
    const ws = await createWorkspace(ctx);
    for (const configure of [{ password: 'hunter2' }, { Token: 'abc' }, { client_secret: 's' }]) {
      const body = expectEnvelope(
        await createProfileRequest(ctx, dbBody(ws.id, { configure })),
        422,
        'CONNECTION_PROFILE_SECRET_INLINE',
      );
      expect(body.details.fields).toEqual(Object.keys(configure));
    }
    const ref = await createCredentialRef(ctx);
    // A field filled from a reference cannot also be given a value.
    expectEnvelope(
      await createProfileRequest(
        ctx,
        dbBody(ws.id, {
          configure: { username: 'u' },
          secrets: [{ configure_field: 'username', credential_ref_id: ref.id }],
        }),
      ),
      422,
      'CONNECTION_PROFILE_SECRET_INLINE',
    );
    expectEnvelope(
      await createProfileRequest(
        ctx,
        dbBody(ws.id, {
          secrets: [
            { configure_field: 'password', credential_ref_id: ref.id },
            { configure_field: 'password', credential_ref_id: ref.id },
          ],
        }),
      ),
      422,
      'CONNECTION_PROFILE_INVALID',
    );
    expectEnvelope(
      await createProfileRequest(
        ctx,
        dbBody(ws.id, {
          secrets: [
            { configure_field: 'password', credential_ref_id: '00000000-0000-4000-8000-000000000001' },
          ],
        }),
      ),
      404,
      'CREDENTIAL_REF_NOT_FOUND',
    );
  });

  it("applies DataCoolie's connection rules: type and format pairs, auth settings, no streaming", async () => {
    const ws = await createWorkspace(ctx);
    const base = { workspace_id: ws.id, system_id: pgSystemId, name: unique('c') };
    const bad = expectEnvelope(
      await createProfileRequest(ctx, { ...base, connection_type: 'database', format: 'parquet' }),
      422,
      'CONNECTION_PROFILE_INVALID',
    );
    expect(bad.detail).toBe("Format 'parquet' is not valid for connection_type 'database'. Allowed: sql");
    const auth = expectEnvelope(
      await createProfileRequest(ctx, {
        ...base,
        connection_type: 'database',
        format: 'sql',
        configure: { auth_type: 'service_principal', username: 'app' },
      }),
      422,
      'CONNECTION_PROFILE_INVALID',
    );
    expect(auth.detail).toContain(
      "auth_type 'service_principal' requires configure fields: password, tenant_id",
    );
    expectEnvelope(
      await createProfileRequest(ctx, { ...base, connection_type: 'streaming', format: 'delta' }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it("refuses a connection type the system's kind cannot serve", async () => {
    const ws = await createWorkspace(ctx);
    const kafka = await createSystemFor(ctx, 'kafka');
    const storage = await createSystemFor(ctx, 'storage');
    const cases: [string, string, string][] = [
      [storage.id, 'database', 'sql'],
      [pgSystemId, 'lakehouse', 'delta'],
      [kafka.id, 'file', 'json'],
    ];
    for (const [system_id, connection_type, format] of cases) {
      expectEnvelope(
        await createProfileRequest(ctx, {
          workspace_id: ws.id,
          system_id,
          name: unique('c'),
          connection_type,
          format,
        }),
        422,
        'CONNECTION_PROFILE_SYSTEM_MISMATCH',
      );
    }
    // A custom function is how a Kafka system is read (DataCoolie has no streaming format).
    await createProfile(ctx, ws.id, kafka.id, { connection_type: 'function', format: 'function' });
  });

  it('keeps names unique per workspace, and its workspace and system fixed', async () => {
    const ws = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    const profile = await createProfile(ctx, ws.id, pgSystemId, { name: 'shared_name' });
    expectEnvelope(
      await createProfileRequest(ctx, dbBody(ws.id, { name: 'shared_name' })),
      409,
      'CONNECTION_PROFILE_ALREADY_EXISTS',
    );
    await createProfile(ctx, other.id, pgSystemId, { name: 'shared_name' });
    // A given connection_id is kept (a DataCoolie document moved in keeps its ids), once.
    const id = 'f62b7bbc-83db-5858-9505-42b62112b76b';
    expect((await createProfile(ctx, ws.id, pgSystemId, { id })).id).toBe(id);
    expectEnvelope(
      await createProfileRequest(ctx, dbBody(other.id, { id })),
      409,
      'CONNECTION_PROFILE_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${API}/connection-profiles/${profile.id}`, {
        token: ctx.userToken,
        body: { workspace_id: other.id, row_version: 1 },
      }),
      422,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await createProfileRequest(ctx, {
        workspace_id: '00000000-0000-4000-8000-000000000002',
        system_id: pgSystemId,
        name: unique('c'),
        connection_type: 'database',
        format: 'sql',
      }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    expectEnvelope(
      await createProfileRequest(ctx, {
        workspace_id: ws.id,
        system_id: '00000000-0000-4000-8000-000000000003',
        name: unique('c'),
        connection_type: 'database',
        format: 'sql',
      }),
      404,
      'SYSTEM_NOT_FOUND',
    );
  });

  it('updates with the row version, checking the result again', async () => {
    const ws = await createWorkspace(ctx);
    const profile = await createProfile(ctx, ws.id, pgSystemId);
    const updated = ok(
      await ctx.request('PATCH', `${API}/connection-profiles/${profile.id}`, {
        token: ctx.userToken,
        body: { use_schema_hint: false, configure: { port: 6432 }, row_version: 1 },
      }),
    );
    expect(updated).toMatchObject({ use_schema_hint: false, configure: { port: 6432 }, row_version: 2 });
    expectEnvelope(
      await ctx.request('PATCH', `${API}/connection-profiles/${profile.id}`, {
        token: ctx.userToken,
        body: { format: 'csv', row_version: 2 },
      }),
      422,
      'CONNECTION_PROFILE_INVALID',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${API}/connection-profiles/${profile.id}`, {
        token: ctx.userToken,
        body: { name: 'x', row_version: 1 },
      }),
      409,
      'VERSION_CONFLICT',
    );
  });

  it('guards what profiles use: their system, their credential references, their workspace', async () => {
    const ws = await createWorkspace(ctx);
    const system = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id);
    const ref = await createCredentialRef(ctx);
    const profile = await createProfile(ctx, ws.id, system.id, {
      secrets: [{ configure_field: 'password', credential_ref_id: ref.id }],
    });
    const admin = { token: ctx.adminToken };
    expectEnvelope(
      await ctx.request('DELETE', `${API}/systems/${system.id}`, admin),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${API}/credential-refs/${ref.id}`, admin),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${API}/workspaces/${ws.id}`, admin),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
    // Deletes are a superuser's.
    expectEnvelope(
      await ctx.request('DELETE', `${API}/connection-profiles/${profile.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    ok(await ctx.request('DELETE', `${API}/connection-profiles/${profile.id}`, admin));
    ok(await ctx.request('DELETE', `${API}/credential-refs/${ref.id}`, admin));
    // Its credential reference is gone: the profile cannot come back until it is restored.
    expectEnvelope(
      await ctx.request('POST', `${API}/connection-profiles/${profile.id}/restore`, admin),
      404,
      'CREDENTIAL_REF_NOT_FOUND',
    );
    ok(await ctx.request('POST', `${API}/credential-refs/${ref.id}/restore`, admin));
    ok(await ctx.request('POST', `${API}/connection-profiles/${profile.id}/restore`, admin));
  });

  it('refuses a profile change that would break its dataflows', async () => {
    const f = await pipelineFixture(ctx);
    ok(await ctx.request('POST', `${API}/dataflows`, { token: ctx.userToken, body: copyBody(f) }), 201);
    // The destination table is delta: an iceberg profile no longer reaches it.
    const body = expectEnvelope(
      await ctx.request('PATCH', `${API}/connection-profiles/${f.bronze.id}`, {
        token: ctx.userToken,
        body: { format: 'iceberg', row_version: f.bronze.row_version },
      }),
      422,
      'DATAFLOW_INVALID',
    );
    expect(body.details.cause.error_code).toBe('DATAFLOW_DATASET_MISMATCH');
    expectEnvelope(
      await ctx.request('DELETE', `${API}/connection-profiles/${f.bronze.id}`, { token: ctx.adminToken }),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
  });
});
