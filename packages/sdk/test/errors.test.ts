// Every error class, as the real backend produces it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AideApiError,
  AideClient,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
} from '../src/index.js';
import { adminClient, backend, clientFor, createUser, unique } from './helpers/backend.js';

let admin: AideClient;
let regular: AideClient;

beforeAll(async () => {
  admin = adminClient();
  regular = clientFor(await createUser(admin));
});

afterAll(async () => {
  await admin.close();
  await regular.close();
});

async function caught(promise: Promise<unknown>): Promise<AideApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AideApiError);
  return error as AideApiError;
}

describe('API errors carry status, errorCode, detail, requestId and details', () => {
  it('401 AuthenticationError', async () => {
    const client = new AideClient({ baseUrl: backend.baseUrl, token: 'not-a-jwt' });
    const error = await caught(client.systemKinds.list());
    await client.close();
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      errorCode: 'UNAUTHORIZED',
      route: 'GET /api/v1/system-kinds',
    });
    expect(error.headers['www-authenticate']).toBe('Bearer');
  });

  it('403 PermissionDeniedError: a regular user writing reference data', async () => {
    const error = await caught(regular.systemKinds.create({ code: unique('nope'), name: 'Nope' }));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, errorCode: 'FORBIDDEN' });
    // ...and include_deleted is for superusers only.
    expect(await caught(regular.systems.list({ include_deleted: true }))).toBeInstanceOf(
      PermissionDeniedError,
    );
  });

  it('404 NotFoundError, with the X-Request-ID the call sent', async () => {
    const error = await caught(admin.systemKinds.get(randomUUID(), { requestId: 'sdk-errors-404' }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      errorCode: 'SYSTEM_KIND_NOT_FOUND',
      requestId: 'sdk-errors-404',
    });
    expect(error.message).toContain('sdk-errors-404');
    if (error.hasKnownCode()) {
      // narrowed to the catalogue's ErrorCode union
      const code: 'SYSTEM_KIND_NOT_FOUND' | 'OTHER' =
        error.errorCode === 'SYSTEM_KIND_NOT_FOUND' ? error.errorCode : 'OTHER';
      expect(code).toBe('SYSTEM_KIND_NOT_FOUND');
    }
  });

  it('409 ConflictError: a duplicate code', async () => {
    const code = unique('dup');
    await admin.systemKinds.create({ code, name: 'First' });
    const error = await caught(admin.systemKinds.create({ code, name: 'Second' }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, errorCode: 'SYSTEM_KIND_ALREADY_EXISTS' });
  });

  it('409 ConflictError: a stale row_version, then reload and reapply', async () => {
    const kind = await admin.systemKinds.create({ code: unique('versioned'), name: 'v1' });
    await admin.systemKinds.update(kind.id, {
      name: 'changed by someone else',
      row_version: kind.row_version,
    });

    const error = await caught(
      admin.systemKinds.update(kind.id, { name: 'mine', row_version: kind.row_version }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, errorCode: 'VERSION_CONFLICT' });

    const fresh = await admin.systemKinds.get(kind.id);
    const mine = await admin.systemKinds.update(kind.id, { name: 'mine', row_version: fresh.row_version });
    expect(mine).toMatchObject({ name: 'mine', row_version: 3 });
  });

  it('422 ValidationError with the zod issues in details', async () => {
    const error = await caught(admin.systemKinds.create({ code: '', name: 'Empty code' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, errorCode: 'VALIDATION_ERROR' });
    expect(Array.isArray(error.details?.['issues'])).toBe(true);

    // Unknown filters and out-of-range sizes too.
    expect(await caught(admin.systemKinds.list({ colour: 'red' }))).toMatchObject({
      status: 422,
      errorCode: 'VALIDATION_ERROR',
    });
    expect(await caught(admin.systemKinds.list({ size: 1000 }))).toBeInstanceOf(ValidationError);
  });

  it('400 ValidationError: restoring an entity that is not deleted', async () => {
    const kind = await admin.systemKinds.create({ code: unique('alive'), name: 'Alive' });
    const error = await caught(admin.systemKinds.restore(kind.id));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, errorCode: 'ENTITY_NOT_DELETED' });
  });

  it('429 RateLimitError with retryAfter: login throttling of an account', async () => {
    const { username, password } = await createUser(admin);
    // The test backend allows 3 failed logins per account and window (global-setup.mjs).
    const wrong = clientFor({ username, password: 'wrong-password' });
    try {
      for (let i = 0; i < 3; i++) {
        expect(await caught(wrong.auth.login())).toMatchObject({
          status: 401,
          errorCode: 'INVALID_CREDENTIALS',
        });
      }
    } finally {
      await wrong.close();
    }
    // Now even the right password is refused until the window ends (maxRetries 0: a throttled login
    // is otherwise retried after its Retry-After).
    const right = clientFor({ username, password }, { maxRetries: 0 });
    const error = await caught(right.auth.login());
    await right.close();
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, errorCode: 'TOO_MANY_REQUESTS' });
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
  });
});
