/// <reference types="node" />
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from './openapi.js';
import { breakingChanges, changeKey, type OpenApiDocument } from './openapi-compat.js';

// The last released contract (refreshed with `pnpm --filter @aide/schemas openapi:baseline` when a
// contract is released; ADR 0008, amendment). The generated document may grow compatibly; each
// breaking change from the baseline is acknowledged by name below, with why.
const baseline = JSON.parse(
  readFileSync(new URL('../fixtures/openapi-baseline.json', import.meta.url), 'utf8'),
) as OpenApiDocument;

/** `where: change` (as `changeKey` names it) → why the break is intended. Empty after a refresh. */
const KAFKA_UNKNOWN =
  "Issue 24, ADR 0045: a schema registry cannot know a topic's partitions or retention; null until filled in";
const OL_STATIC_EVENTS =
  'Issue 27, ADR 0051: a JobEvent or DatasetEvent (refused before) has no run; a DatasetEvent no job. ' +
  'A RunEvent still answers all three';
const OL_UNPINNED =
  'Issue 27 §2, ADR 0054: a dataset without a published version is linked by the OpenLineage intake, ' +
  'unpinned on that side until a later event pins it';
const ACKNOWLEDGED: Record<string, string> = {
  'DatasetLink.source_schema_id: may now be null': OL_UNPINNED,
  'DatasetLink.target_schema_id: may now be null': OL_UNPINNED,
  'OpenLineageIntakeResult.event_type: may now be null': OL_STATIC_EVENTS,
  'OpenLineageIntakeResult.job: may now be null': OL_STATIC_EVENTS,
  'OpenLineageIntakeResult.run_id: may now be null': OL_STATIC_EVENTS,
  'BulkCreateItemResult.dataset(kind=kafka).partitions: may now be null': KAFKA_UNKNOWN,
  'BulkCreateItemResult.dataset(kind=kafka).retention_ms: may now be null': KAFKA_UNKNOWN,
  'Dataset(kind=kafka).partitions: may now be null': KAFKA_UNKNOWN,
  'Dataset(kind=kafka).retention_ms: may now be null': KAFKA_UNKNOWN,
};

describe('OpenAPI document generated from the route contract', () => {
  it('breaks the baseline contract only where acknowledged', () => {
    const found = breakingChanges(baseline, buildOpenApiDocument('0.0.0'));
    const named = found.map((c) => `${changeKey(c)}  (${c.operations.join(', ')})`);
    const unacknowledged = named.filter((_, i) => !(changeKey(found[i]) in ACKNOWLEDGED));
    const stale = Object.keys(ACKNOWLEDGED).filter((key) => !found.some((c) => changeKey(c) === key));
    expect({ unacknowledged, stale }).toEqual({ unacknowledged: [], stale: [] });
  });
});

/** A document with one operation `method path` built from `op`, and `schemas` as its components. */
function doc(
  op: object,
  schemas: Record<string, object> = {},
  path = '/x',
  method = 'post',
): OpenApiDocument {
  return { paths: { [path]: { [method]: { responses: {}, ...op } } }, components: { schemas } };
}
const body = (schema: object) => ({
  requestBody: { required: true, content: { 'application/json': { schema } } },
});
const answer = (schema: object, status = '200') => ({
  responses: { [status]: { description: 'OK', content: { 'application/json': { schema } } } },
});
const object = (properties: Record<string, object>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const str = { type: 'string' };
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const keys = (before: OpenApiDocument, after: OpenApiDocument) =>
  breakingChanges(before, after).map(changeKey);

describe('breakingChanges', () => {
  it('ignores descriptions, summaries and the order of parameters', () => {
    const before = doc({
      summary: 'a',
      parameters: [
        { in: 'query', name: 'a', schema: str },
        { in: 'query', name: 'b', schema: str, description: 'old' },
      ],
    });
    const after = doc({
      summary: 'b',
      description: 'new',
      parameters: [
        { in: 'query', name: 'b', schema: { ...str, description: 'new' } },
        { in: 'query', name: 'a', schema: str },
      ],
    });
    expect(keys(before, after)).toEqual([]);
  });

  it('flags a removed operation, not a new one', () => {
    expect(keys(doc({}), doc({}, {}, '/y'))).toEqual(['POST /x: operation removed']);
    expect(keys(doc({}), { paths: { ...doc({}).paths, ...doc({}, {}, '/y').paths } })).toEqual([]);
  });

  it('flags a new required parameter or one newly required, not a new optional one', () => {
    const before = doc({ parameters: [{ in: 'query', name: 'a', schema: str }] });
    const required = doc({ parameters: [{ in: 'query', name: 'a', required: true, schema: str }] });
    const added = doc({
      parameters: [
        { in: 'query', name: 'a', schema: str },
        { in: 'query', name: 'b', required: true, schema: str },
      ],
    });
    const optional = doc({
      parameters: [
        { in: 'query', name: 'a', schema: str },
        { in: 'query', name: 'b', schema: str },
      ],
    });
    expect(keys(before, required)).toEqual(['POST /x query a: input newly required']);
    expect(keys(before, added)).toEqual(['POST /x query b: input newly required']);
    expect(keys(before, optional)).toEqual([]);
  });

  it('flags a removed input property or parameter', () => {
    expect(keys(doc(body(object({ a: str, b: str }))), doc(body(object({ a: str }))))).toEqual([
      'POST /x request body.b: input removed',
    ]);
    expect(keys(doc({ parameters: [{ in: 'query', name: 'a', schema: str }] }), doc({}))).toEqual([
      'POST /x query a: input removed',
    ]);
  });

  it('flags an input property newly required, not one no longer required', () => {
    const optional = doc(body(object({ a: str, b: str }, ['a'])));
    const required = doc(body(object({ a: str, b: str }, ['a', 'b'])));
    expect(keys(optional, required)).toEqual(['POST /x request body.b: input newly required']);
    expect(keys(required, optional)).toEqual([]);
    expect(keys(optional, doc(body(object({ a: str, b: str, c: str }, ['a']))))).toEqual([]);
    expect(keys(optional, doc(body(object({ a: str, b: str, c: str }, ['a', 'c']))))).toEqual([
      'POST /x request body.c: input newly required',
    ]);
  });

  it('flags a retyped property in either direction, a widened input is fine', () => {
    const before = (s: object) => doc({ ...body(object({ a: s })), ...answer(object({ b: s })) });
    expect(keys(before(str), before({ type: 'integer' }))).toEqual([
      'POST /x 200 response body.b: may now be integer',
      'POST /x request body.a: no longer accepts string',
    ]);
    expect(
      keys(doc(body(object({ a: { type: 'integer' } }))), doc(body(object({ a: { type: 'number' } })))),
    ).toEqual([]);
  });

  it('flags a response property removed or made optional, not a new one', () => {
    const before = doc(answer(object({ a: str, b: str }, ['a', 'b'])));
    expect(keys(before, doc(answer(object({ a: str }, ['a']))))).toEqual([
      'POST /x 200 response body.b: removed',
    ]);
    expect(keys(before, doc(answer(object({ a: str, b: str }, ['a']))))).toEqual([
      'POST /x 200 response body.b: may now be absent',
    ]);
    expect(keys(before, doc(answer(object({ a: str, b: str, c: str }, ['a', 'b', 'c']))))).toEqual([]);
  });

  it('flags a response value that may now be null, and an input that no longer accepts null', () => {
    expect(keys(doc(answer(object({ a: str }))), doc(answer(object({ a: nullable(str) }))))).toEqual([
      'POST /x 200 response body.a: may now be null',
    ]);
    expect(keys(doc(answer(object({ a: nullable(str) }))), doc(answer(object({ a: str }))))).toEqual([]);
    expect(keys(doc(body(object({ a: nullable(str) }))), doc(body(object({ a: str }))))).toEqual([
      'POST /x request body.a: null no longer accepted',
    ]);
    expect(keys(doc(body(object({ a: str }))), doc(body(object({ a: nullable(str) }))))).toEqual([]);
  });

  it('flags an input enum that loses a value; a new enum value is fine both ways', () => {
    const input = (values: string[]) => doc(body(object({ a: { type: 'string', enum: values } })));
    const output = (values: string[]) => doc(answer(object({ a: { type: 'string', enum: values } })));
    expect(keys(input(['x', 'y']), input(['x']))).toEqual([
      'POST /x request body.a: enum value removed: "y"',
    ]);
    expect(keys(input(['x']), input(['x', 'y']))).toEqual([]);
    expect(keys(output(['x']), output(['x', 'y']))).toEqual([]);
    expect(keys(doc(body(object({ a: str }))), input(['x']))).toEqual([
      'POST /x request body.a: input narrowed to an enum',
    ]);
  });

  it('flags a tightened input bound or pattern, not a loosened one nor an output bound', () => {
    const query = (schema: object) => doc({ parameters: [{ in: 'query', name: 'n', schema }] });
    expect(keys(query({ type: 'integer', maximum: 10 }), query({ type: 'integer', maximum: 5 }))).toEqual([
      'POST /x query n: maximum tightened',
    ]);
    expect(keys(query({ type: 'integer', maximum: 5 }), query({ type: 'integer', maximum: 10 }))).toEqual([]);
    expect(keys(query(str), query({ ...str, pattern: '^a$' }))).toEqual([
      'POST /x query n: pattern tightened',
    ]);
    expect(keys(doc(answer({ ...str, maxLength: 9 })), doc(answer({ ...str, maxLength: 3 })))).toEqual([]);
  });

  it('compares the values of a map, not its keys', () => {
    const map = (value: object) => doc(answer({ type: 'object', additionalProperties: value }));
    expect(keys(map(object({ a: str })), map(object({ a: { type: 'integer' } })))).toEqual([
      'POST /x 200 response body{}.a: may now be integer',
    ]);
    expect(keys(map(object({ a: str })), map(object({ a: str, b: str })))).toEqual([]);
  });

  it('names a change inside a component once, by the component, for every operation reaching it', () => {
    const ref = { $ref: '#/components/schemas/Thing' };
    const two = (thing: object) => ({
      paths: {
        '/a': { get: answer(ref) },
        '/b': { get: answer({ type: 'array', items: ref }) },
      },
      components: { schemas: { Thing: thing } },
    });
    const found = breakingChanges(two(object({ a: str })), two(object({})));
    expect(found).toEqual([{ where: 'Thing.a', change: 'removed', operations: ['GET /a', 'GET /b'] }]);
  });

  it('follows recursive components and nullable references without looping', () => {
    const tree = (leaf: object) =>
      doc(answer({ $ref: '#/components/schemas/Node' }), {
        Node: object({
          leaf,
          children: { type: 'array', items: nullable({ $ref: '#/components/schemas/Node' }) },
        }),
      });
    expect(keys(tree(str), tree(str))).toEqual([]);
    expect(keys(tree(str), tree({ type: 'integer' }))).toEqual(['Node.leaf: may now be integer']);
  });

  it('flags an input union that loses a variant (paired by its constant), not one that gains one', () => {
    const variant = (kind: string) => object({ kind: { const: kind }, v: str }, ['kind']);
    const input = (...kinds: string[]) => doc(body({ oneOf: kinds.map(variant) }));
    expect(keys(input('a', 'b'), input('a'))).toEqual([
      'POST /x request body(kind=b): variant no longer accepted',
    ]);
    expect(keys(input('a'), input('b', 'a'))).toEqual([]);
  });

  it('flags a success status or media type removed, not a removed error status', () => {
    const both = doc({
      responses: { ...answer(str).responses, ...answer(str, '404').responses },
    });
    expect(keys(both, doc(answer(str)))).toEqual([]);
    expect(keys(both, doc(answer(str, '404')))).toEqual(['POST /x 200 response: success status removed']);
    expect(
      keys(doc(body(str)), doc({ requestBody: { content: { 'text/plain': { schema: str } } } })),
    ).toEqual(['POST /x request body application/json: media type removed']);
  });
});
