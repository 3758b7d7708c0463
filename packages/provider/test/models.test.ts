// Model construction rules (reference §1.1–§1.8): coercion, derived ids, validation messages.
import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  classifySourceQuery,
  ConfigurationError,
  convertToBool,
  createConnection,
  createDataflow,
  createDestination,
  createSchemaHint,
  createTransform,
  DataCoolieError,
  ensureList,
  nameToUuid,
  NAME_UUID_NAMESPACE,
  parseJsonObject,
} from '../src/index.js';
import { thrownMessage } from './fixtures.js';

const configError = (build: () => unknown): string => thrownMessage(build, ConfigurationError);

describe('shared conventions', () => {
  it('name-derived ids are DataCoolie UUIDv5s', () => {
    expect(nameToUuid('bronze_adls')).toBe('b10cf4b2-5e60-5e12-95a0-0de4224b307e');
    expect(nameToUuid('orders_flow')).toBe('1c172c53-13ba-5273-8d8f-66e8d480ccf5');
    expect(nameToUuid('erp_postgres')).toBe('f62b7bbc-83db-5858-9505-42b62112b76b');
    expect(nameToUuid('shared')).toBe('ca37c5e8-369d-512d-b2d4-0caab0ad0a4b');
  });

  it('name-derived ids hash the UTF-8 bytes of any name (the models carry their own SHA-1)', () => {
    // Node's SHA-1 over the same bytes, for names past one 64-byte block, multi-byte and astral
    // characters, and a lone surrogate (written as U+FFFD, as Buffer writes it).
    const expected = (name: string) => {
      const hash = createHash('sha1')
        .update(Buffer.from(NAME_UUID_NAMESPACE.replace(/-/g, ''), 'hex'))
        .update(name, 'utf8')
        .digest();
      hash[6] = (hash[6]! & 0x0f) | 0x50;
      hash[8] = (hash[8]! & 0x3f) | 0x80;
      const hex = hash.subarray(0, 16).toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    for (const name of [
      '',
      'x'.repeat(55),
      'y'.repeat(56),
      'z'.repeat(200),
      'Straße_ß',
      '数据流',
      '🚀 flow',
      'a\ud800b',
    ]) {
      expect(nameToUuid(name)).toBe(expected(name));
    }
  });

  it('ensure_list', () => {
    expect(ensureList(null)).toEqual([]);
    expect(ensureList([' a '])).toEqual([' a ']);
    expect(ensureList('  ')).toEqual([]);
    expect(ensureList('["a","b"]')).toEqual(['a', 'b']);
    expect(ensureList(' a, ,b ')).toEqual(['a', 'b']);
    expect(ensureList('[not json')).toEqual(['[not json']);
    expect(ensureList(5)).toEqual([5]);
  });

  it('convert_to_bool', () => {
    for (const value of ['true', ' YES ', '1', 'on', 't', 'y', 1, true])
      expect(convertToBool(value, 'x')).toBe(true);
    for (const value of ['false', 'no', '0', 'off', 'f', 'n', '', 0, null])
      expect(convertToBool(value, 'x')).toBe(false);
    expect(() => convertToBool('maybe', 'is_active must be a boolean')).toThrow(
      'is_active must be a boolean',
    );
  });

  it('JSON-object fields', () => {
    expect(parseJsonObject('{"a": 1}')).toEqual({ a: 1 });
    expect(parseJsonObject(' ')).toEqual({});
    expect(configError(() => parseJsonObject('[1]'))).toBe('Expected JSON object, got list: [1]');
    expect(configError(() => parseJsonObject('{'))).toBe('Invalid JSON format: {');
    expect(configError(() => parseJsonObject(3))).toBe('Expected str or dict, got int: 3');
  });

  it('errors render their details', () => {
    expect(String(new DataCoolieError('m', { field: 'x' }))).toBe('m | Details: {"field":"x"}');
    expect(String(new DataCoolieError('m'))).toBe('m');
  });
});

describe('Connection', () => {
  it('derives its id, type and lifted fields', () => {
    const configure = { database: 'db1', catalog: 'cat' };
    const connection = createConnection({ name: 'erp_postgres', format: ' SQL ', configure });
    expect(connection).toMatchObject({
      connection_id: 'f62b7bbc-83db-5858-9505-42b62112b76b',
      connection_type: 'database',
      format: 'sql',
      database: 'db1',
      catalog: 'cat',
    });
    configure.database = 'changed';
    expect(connection.configure['database']).toBe('db1');
    expect(createConnection({ name: 'x', format: 'unknown' }).connection_type).toBe('file');
  });

  it('validates what was authored', () => {
    expect(configError(() => createConnection({}))).toBe('Missing required field: name');
    expect(configError(() => createConnection({ name: ' ' }))).toBe(
      'Connection.name must be a non-empty string',
    );
    expect(configError(() => createConnection({ name: 'x', connection_type: 'File' }))).toBe(
      "Unknown connection_type 'File'. Valid types: api, database, file, function, lakehouse, streaming",
    );
    expect(configError(() => createConnection({ name: 'x', connection_type: null }))).toMatch(
      /^Unknown connection_type/,
    );
    expect(
      configError(() => createConnection({ name: 'x', connection_type: 'lakehouse', format: 'csv' })),
    ).toBe("Format 'csv' is not valid for connection_type 'lakehouse'. Allowed: delta, iceberg");
    expect(
      configError(() => createConnection({ name: 'x', connection_type: 'streaming', format: 'json' })),
    ).toBe(
      "Format 'json' is not valid for connection_type 'streaming'. Allowed: none (streaming is not yet supported)",
    );
    expect(
      configError(() => createConnection({ name: 'x', secrets_ref: { a: ['password'], b: ['password'] } })),
    ).toBe(
      "Field 'password' appears in both secrets_ref sources 'a' and 'b'. Each configure field must be listed under exactly one source.",
    );
    expect(configError(() => createConnection({ name: 'x', secrets_ref: 5 }))).toBe(
      'secrets_ref must be a str or dict, got int',
    );
    expect(createConnection({ name: 'x', secrets_ref: '{}' }).secrets_ref).toBeNull();
    expect(configError(() => createConnection({ name: 'x', is_active: 'false' }))).toBe(
      'Connection.is_active must be a boolean',
    );
  });

  it('checks database authentication', () => {
    const db = (configure: Record<string, unknown>) => () =>
      createConnection({ name: 'db', connection_type: 'database', format: 'sql', configure });
    expect(configError(db({ auth_type: 'service_principal', username: 'u' }))).toBe(
      "auth_type 'service_principal' requires configure fields: password, tenant_id on connection 'db'",
    );
    expect(configError(db({ auth_type: 'access_token' }))).toBe(
      "auth_type 'access_token' requires 'token' in configure on connection 'db'",
    );
    expect(configError(db({ auth_type: 'password', host: 'x.fabric.microsoft.com' }))).toMatch(/Entra/);
  });
});

describe('Destination, Transform, DataFlow, SchemaHint', () => {
  const connection = { name: 'c' };

  it('destination rules', () => {
    expect(configError(() => createDestination({ connection, table: ' ' }))).toBe(
      'Destination.table must be a non-empty string',
    );
    const destination = createDestination({
      connection,
      table: ' t ',
      schema_name: ' ',
      load_type: ' Merge_Upsert ',
      configure: { partition_columns: ['day'] },
    });
    expect(destination).toMatchObject({ table: 't', schema_name: null, load_type: 'merge_upsert' });
    expect(destination.partition_columns).toEqual([{ column: 'day', expression: null }]);
    expect(destination.configure).toEqual({});
  });

  it('transform rules', () => {
    expect(configError(() => createTransform({ select_columns: ['a'], drop_columns: ['b'] }))).toBe(
      'select_columns and drop_columns are mutually exclusive',
    );
    expect(configError(() => createTransform({ additional_columns: 5 }))).toBe(
      'transform.additional_columns must be a list of objects',
    );
    expect(configError(() => createTransform({ value_rules: [1] }))).toBe(
      'transform.value_rules[0] must be an object',
    );
    expect(configError(() => createTransform({ rename_columns: { a: 'b', b: 'c' } }))).toMatch(/chains/);
    expect(
      configError(() =>
        createTransform({
          schema_hints: [
            { column_name: 'A', data_type: 'int' },
            { column_name: 'a', data_type: 'int' },
          ],
        }),
      ),
    ).toBe('schema_hints must not contain duplicate columns');
    expect(createTransform({ value_rules: { operation: 'trim', columns: 'a, b' } }).value_rules).toEqual([
      { operation: 'trim', columns: ['a', 'b'], order: 100 },
    ]);
  });

  it('nested errors carry their field path', () => {
    try {
      createDataflow({
        name: 'f',
        source: { connection },
        destination: { connection, table: 't' },
        transform: { schema_hints: [{ column_name: 'a', data_type: 'int' }, { column_name: 'b' }] },
      });
      throw new Error('built');
    } catch (error) {
      expect((error as ConfigurationError).details['field']).toBe('transform.schema_hints[1].data_type');
    }
  });

  it('replace_by_watermark needs a backward window and merge_overwrite', () => {
    const flow = (source: Record<string, unknown>, loadType: string) => () =>
      createDataflow({
        name: 'f',
        source: { connection, ...source },
        destination: {
          connection,
          table: 't',
          load_type: loadType,
          configure: { replace_by_watermark: true },
        },
      });
    expect(configError(flow({}, 'merge_overwrite'))).toMatch(/^replace_by_watermark requires date_backward/);
    expect(configError(flow({ configure: { backward_days: 1 } }, 'append'))).toBe(
      "replace_by_watermark is only supported with merge_overwrite load_type, got 'append'",
    );
    expect(flow({ configure: { backward: { days: 2 } } }, 'merge_overwrite')().destination.load_type).toBe(
      'merge_overwrite',
    );
  });

  it('schema hint coercion', () => {
    expect(
      createSchemaHint({ column_name: 'a', data_type: 'int', precision: '-3', ordinal_position: '' }),
    ).toMatchObject({
      precision: -3,
      ordinal_position: null,
      is_active: true,
    });
    expect(createSchemaHint({ column_name: 'a', data_type: 'int' }).ordinal_position).toBe(0);
    expect(configError(() => createSchemaHint({ column_name: 'a', data_type: 'int', scale: 1.5 }))).toBe(
      'scale must be an integer',
    );
    expect(configError(() => createSchemaHint({ column_name: 'a', data_type: 'int', precision: true }))).toBe(
      'precision must be an integer',
    );
    expect(
      configError(() => createSchemaHint({ column_name: 'a', data_type: 'int', is_active: 'maybe' })),
    ).toBe('is_active must be a boolean');
    expect(configError(() => createSchemaHint({ column_name: '', data_type: 'int' }))).toBe(
      'column_name must be a non-empty string',
    );
  });

  it('classifies source queries by shape', () => {
    expect(classifySourceQuery('select 1')).toBe('inline');
    expect(classifySourceQuery('-- orders.sql')).toBe('inline');
    expect(classifySourceQuery('sql2/orders.sql')).toBe('shorthand');
    expect(classifySourceQuery('artifact:/sql/orders.sql')).toBe('artifact');
    expect(() => classifySourceQuery('/abs/orders.sql')).toThrow(
      "Invalid SQL file reference '/abs/orders.sql'",
    );
    expect(() => classifySourceQuery('s3://b/orders.sql')).toThrow(/Invalid SQL file reference/);
  });
});
