import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { type TestContext, type TestResponse, USER } from './test-app.js';

/** A short unique suffix, so rows of one test never collide with rows of another in the same database. */
export function unique(prefix = 't'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** Asserts a 2xx status (printing the body when it is not) and returns the body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ok(response: TestResponse, status = 200): any {
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any> & { id: string; row_version: number };

export async function createKind(ctx: TestContext, overrides: Record<string, unknown> = {}): Promise<Row> {
  const code = unique('kind');
  const r = await ctx.request('POST', '/api/v1/system-kinds', {
    token: ctx.adminToken,
    body: { code, name: `Kind ${code}`, ...overrides },
  });
  return ok(r, 201);
}

export async function createFlavor(
  ctx: TestContext,
  kindId?: string,
  overrides: Record<string, unknown> = {},
): Promise<Row> {
  const kind_id = kindId ?? (await createKind(ctx)).id;
  const code = unique('flavor');
  const r = await ctx.request('POST', '/api/v1/system-flavors', {
    token: ctx.adminToken,
    body: { code, name: `Flavor ${code}`, kind_id, ...overrides },
  });
  return ok(r, 201);
}

export async function createCredentialRef(
  ctx: TestContext,
  overrides: Record<string, unknown> = {},
): Promise<Row> {
  const r = await ctx.request('POST', '/api/v1/credential-refs', {
    token: ctx.adminToken,
    body: { provider: unique('vault'), path: `secret/${unique('p')}`, ...overrides },
  });
  return ok(r, 201);
}

export async function createSystem(
  ctx: TestContext,
  flavorId?: string,
  overrides: Record<string, unknown> = {},
  token?: string,
): Promise<Row> {
  const flavor_id = flavorId ?? (await createFlavor(ctx)).id;
  const code = unique('sys');
  const r = await ctx.request('POST', '/api/v1/systems', {
    token: token ?? ctx.userToken,
    body: { code, name: `System ${code}`, flavor_id, ...overrides },
  });
  return ok(r, 201);
}

/** A kind → flavor → system chain. */
export async function createChain(ctx: TestContext): Promise<{ kind: Row; flavor: Row; system: Row }> {
  const kind = await createKind(ctx);
  const flavor = await createFlavor(ctx, kind.id);
  const system = await createSystem(ctx, flavor.id);
  return { kind, flavor, system };
}

/**
 * The generic collections of the foundation, described once so the shared contract (CRUD, soft
 * delete, versioning, validation, authorisation) is tested table-driven over all of them.
 */
export interface CollectionCase {
  path: string;
  /** The business key column (filters, sorting, uniqueness). */
  key: 'code' | 'provider';
  writeRole: 'user' | 'superuser';
  notFound: string;
  alreadyExists: string;
  /** A valid create body whose key is `keyValue`; may create parent rows first. */
  body(ctx: TestContext, keyValue: string): Promise<Record<string, unknown>>;
  /** A valid partial update. */
  change: Record<string, unknown>;
}

export const COLLECTIONS: CollectionCase[] = [
  {
    path: 'system-kinds',
    key: 'code',
    writeRole: 'superuser',
    notFound: 'SYSTEM_KIND_NOT_FOUND',
    alreadyExists: 'SYSTEM_KIND_ALREADY_EXISTS',
    body: (_ctx, code) => Promise.resolve({ code, name: `Kind ${code}` }),
    change: { name: 'Renamed kind' },
  },
  {
    path: 'system-flavors',
    key: 'code',
    writeRole: 'superuser',
    notFound: 'SYSTEM_FLAVOR_NOT_FOUND',
    alreadyExists: 'SYSTEM_FLAVOR_ALREADY_EXISTS',
    body: async (ctx, code) => ({
      code,
      name: `Flavor ${code}`,
      kind_id: (await createKind(ctx)).id,
      versions: ['14'],
    }),
    change: { vendor: 'Renamed vendor' },
  },
  {
    path: 'credential-refs',
    key: 'provider',
    writeRole: 'superuser',
    notFound: 'CREDENTIAL_REF_NOT_FOUND',
    alreadyExists: 'CREDENTIAL_REF_ALREADY_EXISTS',
    body: (_ctx, provider) => Promise.resolve({ provider, path: 'secret/db', version: 3 }),
    change: { version: 4 },
  },
  {
    path: 'systems',
    key: 'code',
    writeRole: 'user',
    notFound: 'SYSTEM_NOT_FOUND',
    alreadyExists: 'SYSTEM_ALREADY_EXISTS',
    body: async (ctx, code) => ({
      code,
      name: `System ${code}`,
      flavor_id: (await createFlavor(ctx)).id,
      tags: ['a', 'b'],
      extra: { host: 'db.local', port: 5432 },
    }),
    change: { name: 'Renamed system', is_active: false },
  },
];

/** The token that may write to a collection (a regular user's where allowed, to prove it is). */
export function writerToken(ctx: TestContext, c: CollectionCase): string {
  return c.writeRole === 'user' ? ctx.userToken : ctx.adminToken;
}

/** Creates a row of a collection through the API. */
export async function createRow(ctx: TestContext, c: CollectionCase, keyValue = unique(c.key)): Promise<Row> {
  const r = await ctx.request('POST', `/api/v1/${c.path}`, {
    token: writerToken(ctx, c),
    body: await c.body(ctx, keyValue),
  });
  return ok(r, 201);
}

export const UNKNOWN_ID = '7d2c1f9e-3b4a-4c5d-8e6f-0a1b2c3d4e5f';

/** The audit block every read shape carries. */
export function expectAudit(row: Row, actorId: string, softDelete = true): void {
  expect(row).toMatchObject({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    created_by: actorId,
    updated_by: actorId,
    row_version: 1,
  });
  expect(row).toHaveProperty('note');
  if (softDelete) expect(row).toHaveProperty('deleted_at', null);
  expect(row).not.toHaveProperty('deleted_by');
}

/**
 * A user inserted straight into the test database with USER's password hash (so its password is
 * USER.password): for tests about sessions and tokens, which need users of their own but not the
 * bcrypt cost of creating them through the API. Creation through the API is tested in users.e2e-spec.
 */
export async function insertUser(
  ctx: TestContext,
  overrides: { is_active?: boolean; is_superuser?: boolean; user_type?: 'regular' | 'technical' } = {},
): Promise<{ id: string; email: string; password: string }> {
  const email = `${unique('u')}@example.com`;
  const rows: { id: string }[] = await ctx.dataSource.query(
    `INSERT INTO users (email, hashed_password, full_name, is_active, is_superuser, user_type)
     SELECT $1, hashed_password, 'Inserted', $2, $3, $4 FROM users WHERE id = $5 RETURNING id`,
    [
      email,
      overrides.is_active ?? true,
      overrides.is_superuser ?? false,
      overrides.user_type ?? 'regular',
      USER.id,
    ],
  );
  return { id: rows[0]?.id ?? '', email, password: USER.password };
}
