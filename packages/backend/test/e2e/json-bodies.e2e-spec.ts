// Every JSON body is checked before anything reads it: what would be stored altered (numbers that lose
// digits, lone surrogates, bytes that are not UTF-8) and what would overflow a recursive walk (deep
// nesting) is 422 VALIDATION_ERROR naming the place, on every route, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFlavor, ok, unique } from '../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../helpers/test-app.js';

let ctx: TestContext;
let flavorId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  flavorId = (await createFlavor(ctx)).id;
});
afterAll(async () => {
  await ctx.close();
});

const send = (method: string, path: string, rawBody: string | Buffer, headers: Record<string, string> = {}) =>
  ctx.request(method, path, {
    token: ctx.userToken,
    rawBody,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A system body with `extra` given as raw JSON text. */
const systemWithExtra = (code: string, extra: string) =>
  `{"code":"${code}","name":"x","flavor_id":"${flavorId}","extra":${extra}}`;

async function systemsWithCode(code: string): Promise<number> {
  return ok(await ctx.request('GET', `/api/v1/systems?code=${code}`, { token: ctx.userToken })).total;
}

describe('JSON bodies', () => {
  it('refuses a 10,000-level body sent with an Idempotency-Key: 422, not a stack overflow', async () => {
    // The idempotency interceptor hashes the body before any pipe runs: it used to recurse through it.
    const depth = 10_000;
    const body = systemWithExtra(unique('deep'), `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    const r = await send('POST', '/api/v1/systems', body, { 'idempotency-key': unique('key') });
    const envelope = expectEnvelope(r, 422, 'VALIDATION_ERROR');
    expect(envelope.details.issues[0]).toMatchObject({
      message: 'must not be nested more than 100 levels deep',
      code: 'too_deep',
    });
    expect(envelope.details.issues[0].path.slice(0, 3)).toEqual(['extra', 'a', 'a']);
  });

  it.each([
    ['a number too large to represent', '{"big":1e400}', ['extra', 'big'], /finite/],
    ['a negative one', '{"list":[1,-1e999]}', ['extra', 'list', '1'], /finite/],
    ['an integer beyond 2^53-1', '{"id":9007199254740993}', ['extra', 'id'], /9007199254740991/],
    ['a negative one', '{"id":-9007199254740992}', ['extra', 'id'], /9007199254740991/],
    ['a number that underflows to 0', '{"tiny":1e-400}', ['extra', 'tiny'], /would become 0/],
    ['a lone high surrogate', '{"s":"a\\ud800b"}', ['extra', 's'], /surrogate/],
    ['a lone low surrogate', '{"s":"\\udc00"}', ['extra', 's'], /surrogate/],
    ['a high surrogate at the end', '{"s":"x\\ud83d"}', ['extra', 's'], /surrogate/],
    ['a lone surrogate in a key', '{"\\ud800":1}', ['extra'], /surrogate/],
  ])('refuses %s in extra with 422 naming the path, storing nothing', async (_what, extra, path, message) => {
    const code = unique('num');
    const r = await send('POST', '/api/v1/systems', systemWithExtra(code, extra));
    const envelope = expectEnvelope(r, 422, 'VALIDATION_ERROR');
    expect(envelope.details.issues).toEqual([
      { path, message: expect.stringMatching(message), code: expect.any(String) },
    ]);
    expect(await systemsWithCode(code)).toBe(0);
  });

  it('stores the values it accepts exactly as sent', async () => {
    const extra = {
      max_safe: 9007199254740991,
      min_safe: -9007199254740991,
      small: 1.5e-300,
      fraction: 0.1,
      zero: 0,
      emoji: '😀 \ud83d\ude00',
      escaped: '\\ud800 is text here',
      replacement: '\ufffd',
    };
    const created = ok(
      await send('POST', '/api/v1/systems', systemWithExtra(unique('keep'), JSON.stringify(extra))),
      201,
    );
    const read = ok(await ctx.request('GET', `/api/v1/systems/${created.id}`, { token: ctx.userToken }));
    expect(read.extra).toEqual(extra);
  });

  it('applies to every route and every free-form field: an update, a batch, type params, a params schema', async () => {
    const system = ok(await send('POST', '/api/v1/systems', systemWithExtra(unique('upd'), '{}')), 201);
    expectEnvelope(
      await send('PATCH', `/api/v1/systems/${system.id}`, `{"extra":{"n":1e400},"row_version":1}`),
      422,
      'VALIDATION_ERROR',
    );
    const code = unique('batch');
    const batch = `{"items":[${systemWithExtra(`${code}_a`, '{}')},${systemWithExtra(`${code}_b`, '{"n":[9007199254740993]}')}]}`;
    const envelope = expectEnvelope(
      await send('POST', '/api/v1/systems/batch', batch),
      422,
      'VALIDATION_ERROR',
    );
    expect(envelope.details.issues[0].path).toEqual(['items', '1', 'extra', 'n', '0']);
    expect(await systemsWithCode(`${code}_a`)).toBe(0);
    expectEnvelope(
      await send(
        'POST',
        '/api/v1/type-instances',
        `{"data_type_id":"${flavorId}","type_params":{"p":"\\udfff"}}`,
      ),
      422,
      'VALIDATION_ERROR',
    );
    const dataType = `{"system_flavor_id":"${flavorId}","code":"${unique('dt')}","params_schema":{"type":"object","properties":{"n":{"type":"integer","maximum":1e400}}}}`;
    const refused = await ctx.request('POST', '/api/v1/data-types', {
      token: ctx.adminToken,
      rawBody: dataType,
      headers: { 'content-type': 'application/json' },
    });
    expect(expectEnvelope(refused, 422, 'VALIDATION_ERROR').details.issues[0].path).toEqual([
      'params_schema',
      'properties',
      'n',
      'maximum',
    ]);
  });

  it('refuses bytes that are not UTF-8 instead of storing U+FFFD', async () => {
    const code = unique('utf8');
    const body = Buffer.concat([
      Buffer.from(systemWithExtra(code, '{"s":"').slice(0, -1)),
      Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate: not UTF-8
      Buffer.from('"}}'),
    ]);
    const r = await send('POST', '/api/v1/systems', body);
    expect(expectEnvelope(r, 422, 'VALIDATION_ERROR').detail).toBe('The body is not valid UTF-8.');
    expect(await systemsWithCode(code)).toBe(0);
  });

  it('still answers malformed and empty JSON as before', async () => {
    const malformed = expectEnvelope(
      await send('POST', '/api/v1/systems', '{"code":'),
      422,
      'VALIDATION_ERROR',
    );
    expect(malformed.detail).toBe('The body is not valid JSON.');
    expectEnvelope(await send('POST', '/api/v1/systems', ''), 422, 'VALIDATION_ERROR');
  });
});
