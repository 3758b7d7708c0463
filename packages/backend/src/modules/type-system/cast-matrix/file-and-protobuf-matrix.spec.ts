// The cast matrix with the flavors of issue 24 §1 (protobuf, storage_files, sftp_files): map keys,
// time units, Arrow's timestamp that is local or an instant, and the two file flavors sharing one list.
import { describe, expect, it } from '@jest/globals';
import { loadSeedDirectory } from '../seed-file.js';
import { castHub } from './hub-cast.js';
import { parseHubDecl, resolveHubDecl } from './hub-decl.js';
import { generateCastMatrix, matrixCoverageProblems } from './matrix.js';

const seeds = await loadSeedDirectory();
const tables = seeds.matrixTables.map((t) => t.table);
const matrix = generateCastMatrix(
  tables,
  seeds.castFiles.map((c) => c.file),
);
const rule = (flavor: string, code: string, target: string) =>
  matrix.rules.find(
    (r) => r.source.flavor === flavor && r.source.code === code && r.target.flavor === target,
  );
const typeOf = (flavor: string, code: string) =>
  seeds.typeFiles.find((f) => f.file.flavor.code === flavor)?.file.types.find((t) => t.code === code);

const UNIT = { unit: { enum: ['s', 'ms', 'us', 'ns'] } };
const hub = (decl: string, properties: Record<string, object> = {}, required: string[] = []) =>
  resolveHubDecl(parseHubDecl(decl), { type: 'object', properties, required, additionalProperties: false });

describe('the cast matrix with protobuf and the file flavors', () => {
  it('covers every new type into every flavor and every type into the new flavors', () => {
    expect(tables.map((t) => t.flavor)).toEqual(
      expect.arrayContaining(['protobuf', 'storage_files', 'sftp_files']),
    );
    expect(matrixCoverageProblems(tables, matrix)).toEqual([]);
  });

  it('gives every required param of a target, except the name of a named type and enum symbols', () => {
    for (const r of matrix.rules) {
      const required = typeOf(r.target.flavor, r.target.code)?.params_schema.required ?? [];
      const missing = required.filter((p) => !(p in r.param_mapping) && !['name', 'symbols'].includes(p));
      expect([`${r.source.flavor}.${r.source.code} → ${r.target.flavor}.${r.target.code}`, missing]).toEqual([
        `${r.source.flavor}.${r.source.code} → ${r.target.flavor}.${r.target.code}`,
        [],
      ]);
    }
  });

  it('casts a map whose keys may be other than strings into Avro and JSON Schema as lossy', () => {
    for (const [source, code] of [
      ['spark_sql', 'map'],
      ['hive3', 'map'],
      ['iceberg_v2', 'map'],
      ['protobuf', 'map'],
      ['storage_files', 'map'],
    ] as const) {
      for (const target of ['avro', 'json_schema']) {
        expect(rule(source, code, target)).toMatchObject({
          target: { code: 'map' },
          fidelity: 'lossy',
          safety: 'unsafe',
          loss: ['non-string keys become strings'],
        });
      }
    }
    expect(rule('spark_sql', 'map', 'protobuf')).toMatchObject({
      target: { code: 'map' },
      fidelity: 'lossy',
      loss: ['keys other than integers, booleans and strings become strings'],
    });
    // String keys fit every map.
    expect(rule('avro', 'map', 'json_schema')).toMatchObject({ target: { code: 'map' }, fidelity: 'exact' });
    expect(rule('avro', 'map', 'spark_sql')).toMatchObject({ target: { code: 'map' }, fidelity: 'widening' });
    expect(rule('protobuf', 'map', 'storage_files')).toMatchObject({ fidelity: 'widening' });
  });

  it('maps the representative casts of the issue', () => {
    expect(rule('storage_files', 'decimal', 'postgres14')).toMatchObject({
      target: { code: 'numeric' },
      fidelity: 'exact',
      param_mapping: { precision: '@precision', scale: '@scale' },
    });
    // uint64 keeps every value as an Avro decimal(20,0) (a widening beats the lossy long, ADR 0043);
    // JSON Schema's integer (64-bit signed) loses the range above 2^63-1.
    expect(rule('protobuf', 'uint64', 'avro')).toMatchObject({
      target: { code: 'decimal_bytes' },
      fidelity: 'widening',
      param_mapping: { precision: 20, scale: 0 },
    });
    expect(rule('protobuf', 'uint64', 'json_schema')).toMatchObject({
      target: { code: 'integer' },
      fidelity: 'lossy',
      loss: ['range'],
    });
    expect(rule('protobuf', 'timestamp', 'avro')).toMatchObject({
      target: { code: 'timestamp_nanos' },
      fidelity: 'exact',
    });
    expect(rule('avro', 'timestamp_micros', 'storage_files')).toMatchObject({
      target: { code: 'timestamp' },
      fidelity: 'exact',
      param_mapping: { unit: 'us', timezone: 'UTC' },
    });
    expect(rule('postgres14', 'timestamp', 'sftp_files')).toMatchObject({
      target: { code: 'timestamp' },
      fidelity: 'widening',
      param_mapping: { unit: 'us' },
    });
    expect(rule('storage_files', 'timestamp', 'spark_sql')).toMatchObject({
      target: { code: 'timestamp' },
      fidelity: 'lossy',
      loss: ['time zone (local time read as UTC)', 'precision above 6'],
    });
    expect(rule('storage_files', 'time64', 'postgres14')).toMatchObject({
      target: { code: 'time' },
      fidelity: 'lossy',
      param_mapping: { precision: 6 },
      loss: ['precision above 6'],
    });
    expect(rule('postgres14', 'interval', 'storage_files')).toMatchObject({
      target: { code: 'interval' },
      param_mapping: { unit: 'month_day_nano' },
    });
    expect(rule('protobuf', 'oneof', 'storage_files')).toMatchObject({
      target: { code: 'union' },
      param_mapping: { mode: 'dense' },
    });
    // Nanoseconds into a microsecond flavor: the finest it has, a declared loss (was a date).
    expect(rule('avro', 'timestamp_nanos', 'postgres14')).toMatchObject({
      target: { code: 'timestamptz' },
      param_mapping: { precision: 6 },
      loss: ['precision above 6'],
    });
  });

  it('casts storage_files and sftp_files into each other as is, every param copied', () => {
    for (const [from, to] of [
      ['storage_files', 'sftp_files'],
      ['sftp_files', 'storage_files'],
    ]) {
      const rules = matrix.rules.filter((r) => r.source.flavor === from && r.target.flavor === to);
      expect(rules).toHaveLength(typeOf(from, 'int32') ? 37 : 0);
      for (const r of rules) {
        const params = Object.keys(typeOf(from, r.source.code)?.params_schema.properties ?? {});
        expect(r).toMatchObject({
          target: { code: r.source.code },
          fidelity: 'exact',
          safety: 'implicit',
          param_mapping: Object.fromEntries(params.map((p) => [p, `@${p}`])),
        });
      }
    }
  });
});

describe('castHub: time units and a timestamp local or instant', () => {
  const arrowTimestamp = hub(
    'timestamp_any(@unit:time_unit, @timezone)',
    { ...UNIT, timezone: { type: 'string' } },
    ['unit'],
  );

  it('reads a unit as digits, copies it between unit params and picks the coarsest that holds a precision', () => {
    const time32 = hub('time(@unit:time_unit)', { unit: { enum: ['s', 'ms'] } }, ['unit']);
    const time64 = hub('time(@unit:time_unit)', { unit: { enum: ['us', 'ns'] } }, ['unit']);
    expect(castHub(time32, time64)).toMatchObject({ fidelity: 'widening', mapping: { unit: 'us' } });
    expect(castHub(time64, time32)).toMatchObject({
      fidelity: 'lossy',
      mapping: { unit: 'ms' },
      loss: ['precision above 3'],
    });
    expect(castHub(time32, time32)).toMatchObject({ fidelity: 'exact', mapping: { unit: '@unit' } });
    expect(castHub(hub('time(6)'), time64)).toMatchObject({ fidelity: 'exact', mapping: { unit: 'us' } });
    expect(castHub(hub('time'), time64)).toMatchObject({ fidelity: 'lossy', loss: ['precision above 9'] });
    expect(() => hub('time(@unit:time_unit)', { unit: { enum: ['s', 'day'] } }, ['unit'])).toThrow(
      /required enum of s, ms, us, ns/,
    );
  });

  it('gives an instant tz=UTC, keeps a local time local, and reads a local one as UTC out of it', () => {
    expect(castHub(hub('timestamptz(6)'), arrowTimestamp)).toMatchObject({
      fidelity: 'exact',
      mapping: { unit: 'us', timezone: 'UTC' },
    });
    expect(castHub(hub('timestamp(3)'), arrowTimestamp)).toMatchObject({
      fidelity: 'exact',
      mapping: { unit: 'ms' },
    });
    const toInstant = castHub(arrowTimestamp, hub('timestamptz(9)'));
    const toLocal = castHub(arrowTimestamp, hub('timestamp(9)'));
    expect(toInstant).toMatchObject({ fidelity: 'lossy', loss: ['time zone (local time read as UTC)'] });
    expect(toLocal).toMatchObject({ fidelity: 'lossy', loss: ['time zone offset'] });
    // The instant is the first choice.
    expect(toInstant!.distance).toBeLessThan(toLocal!.distance);
    expect(castHub(hub('date'), arrowTimestamp)).toMatchObject({
      fidelity: 'widening',
      mapping: { unit: 's' },
    });
  });

  it('orders maps by their keys: any type, integers/booleans/strings, strings', () => {
    expect(castHub(hub('map'), hub('map_string_keys'))?.fidelity).toBe('lossy');
    expect(castHub(hub('map_integral_keys'), hub('map_string_keys'))?.fidelity).toBe('lossy');
    expect(castHub(hub('map_string_keys'), hub('map_integral_keys'))?.fidelity).toBe('widening');
    expect(castHub(hub('map_integral_keys'), hub('map'))?.fidelity).toBe('widening');
    expect(castHub(hub('map'), hub('list'))).toBeNull();
  });
});
