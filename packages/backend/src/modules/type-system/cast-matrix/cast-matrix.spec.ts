import { describe, expect, it } from '@jest/globals';
import { paramMappingIssues } from '../cast-mapping.js';
import { paramNamesOf } from '../params-schema.js';
import { loadSeedDirectory, parseSeedFile, SeedFileError } from '../seed-file.js';
import { castHub } from './hub-cast.js';
import { parseHubDecl, resolveHubDecl } from './hub-decl.js';
import { generateCastMatrix, matrixCoverageProblems } from './matrix.js';
import { parseMatrixTable } from './matrix-table.js';

const seeds = await loadSeedDirectory();
const tables = seeds.matrixTables.map((t) => t.table);
const matrix = generateCastMatrix(
  tables,
  seeds.castFiles.map((c) => c.file),
);
const typeOf = (flavor: string, code: string) =>
  seeds.typeFiles.find((f) => f.file.flavor.code === flavor)?.file.types.find((t) => t.code === code);

const hub = (decl: string, params: Record<string, { maximum?: number }> = {}, required: string[] = []) =>
  resolveHubDecl(parseHubDecl(decl), {
    type: 'object',
    properties: params,
    required,
    additionalProperties: false,
  });

describe('the shipped cast matrix', () => {
  it('places every type of every shipped flavor on the hub', () => {
    expect(tables.map((t) => t.flavor).sort()).toEqual(seeds.typeFiles.map((f) => f.file.flavor.code).sort());
  });

  it('has exactly one rule or one "no mapping" per source type × target flavor, nothing missing', () => {
    expect(matrixCoverageProblems(tables, matrix)).toEqual([]);
    const pairs = tables.reduce((n, t) => n + t.types.length * (tables.length - 1), 0);
    expect(matrix.rules.length + matrix.gaps.length).toBe(pairs);
  });

  it('marks every rule, lists what lossy ones lose, and gives every gap a reason', () => {
    for (const rule of matrix.rules) {
      const name = `${rule.source.flavor}.${rule.source.code} → ${rule.target.flavor}.${rule.target.code}`;
      expect([name, ['exact', 'widening', 'lossy'].includes(rule.fidelity)]).toEqual([name, true]);
      expect([name, rule.loss.length > 0]).toEqual([name, rule.fidelity === 'lossy']);
    }
    for (const gap of matrix.gaps) expect(gap.reason.length).toBeGreaterThan(5);
  });

  it('maps only params the two types have', () => {
    for (const rule of matrix.rules) {
      const source = typeOf(rule.source.flavor, rule.source.code);
      const target = typeOf(rule.target.flavor, rule.target.code);
      if (!source || !target) throw new Error(`unknown type in ${JSON.stringify(rule)}`);
      expect(
        paramMappingIssues(
          rule.param_mapping,
          paramNamesOf(source.params_schema),
          paramNamesOf(target.params_schema),
        ),
      ).toEqual([]);
    }
  });

  it('keeps the hand-written rules as overrides and classifies them', () => {
    const override = matrix.rules.find(
      (r) =>
        r.source.flavor === 'postgres14' && r.source.code === 'timetz' && r.target.flavor === 'iceberg_v2',
    );
    expect(override).toMatchObject({
      origin: 'override',
      target: { code: 'time' },
      safety: 'unsafe',
      fidelity: 'lossy',
      loss: ['time zone offset'],
    });
    const overrides = seeds.castFiles.flatMap((c) => c.file.mappings).length;
    expect(matrix.rules.filter((r) => r.origin === 'override')).toHaveLength(overrides);
  });

  it('picks the best target: exact, else the narrowest widening, else a declared loss before a text form', () => {
    const rule = (flavor: string, code: string, target: string) =>
      matrix.rules.find(
        (r) => r.source.flavor === flavor && r.source.code === code && r.target.flavor === target,
      );
    expect(rule('mysql8', 'tinyint', 'postgres14')).toMatchObject({
      target: { code: 'smallint' },
      fidelity: 'widening',
    });
    expect(rule('mysql8', 'bigint_unsigned', 'postgres14')).toMatchObject({
      target: { code: 'numeric' },
      fidelity: 'widening',
      param_mapping: { precision: 20, scale: 0 },
    });
    expect(rule('mysql8', 'int_unsigned', 'postgres14')).toMatchObject({ target: { code: 'bigint' } });
    expect(rule('postgres14', 'varchar', 'mysql8')).toMatchObject({
      target: { code: 'varchar' },
      fidelity: 'exact',
      param_mapping: { length: '@length' },
      limits: ['length above 65535 is refused', 'an unset length is refused'],
    });
    expect(rule('postgres14', 'timestamptz', 'mysql8')).toMatchObject({
      target: { code: 'timestamp' },
      fidelity: 'lossy',
    });
    expect(rule('postgres14', 'inet', 'iceberg_v2')).toMatchObject({
      target: { code: 'string' },
      safety: 'safe',
    });
    expect(rule('postgres14', 'array', 'mysql8')).toMatchObject({
      target: { code: 'json' },
      fidelity: 'widening',
    });
    expect(matrix.gaps).toContainEqual({
      source: { flavor: 'postgres14', code: 'pg_ndistinct' },
      target_flavor: 'sqlite3',
      reason: 'planner statistics (n-distinct), not data',
    });
  });
});

describe('castHub', () => {
  it('orders integers by range', () => {
    expect(castHub(hub('int16'), hub('int32'))).toMatchObject({ fidelity: 'widening', distance: 1 });
    expect(castHub(hub('int64'), hub('int32'))).toMatchObject({ fidelity: 'lossy', loss: ['range'] });
    expect(castHub(hub('uint32'), hub('int32'))?.fidelity).toBe('lossy');
    expect(castHub(hub('uint32'), hub('int64'))?.fidelity).toBe('widening');
    expect(castHub(hub('int64'), hub('float64'))).toMatchObject({ fidelity: 'lossy', loss: ['precision'] });
    expect(castHub(hub('int32'), hub('float64'))?.fidelity).toBe('widening');
  });

  it('copies params, refuses what exceeds the target and says what an unset param loses', () => {
    const pg = hub('decimal(@precision, @scale)', { precision: { maximum: 1000 }, scale: { maximum: 1000 } });
    const iceberg = hub(
      'decimal(@precision, @scale)',
      { precision: { maximum: 38 }, scale: { maximum: 38 } },
      ['precision', 'scale'],
    );
    expect(castHub(pg, iceberg)).toMatchObject({
      fidelity: 'exact',
      mapping: { precision: '@precision', scale: '@scale' },
      limits: [
        'precision above 38 is refused',
        'an unset precision is refused',
        'scale above 38 is refused',
        'an unset scale is refused',
      ],
    });
    const mysql = hub('decimal(@precision=10, @scale=0)', {
      precision: { maximum: 65 },
      scale: { maximum: 30 },
    });
    expect(castHub(pg, mysql)).toMatchObject({
      fidelity: 'lossy',
      loss: ['precision above 10 when unset', 'scale above 0 when unset'],
    });
    expect(castHub(hub('decimal(19, 2)'), iceberg)).toMatchObject({
      fidelity: 'exact',
      mapping: { precision: 19, scale: 2 },
    });
    expect(
      castHub(hub('timestamp(@precision=6)', { precision: { maximum: 6 } }), hub('timestamp(3)')),
    ).toMatchObject({
      fidelity: 'lossy',
      loss: ['precision above 3'],
    });
    expect(castHub(hub('int64'), iceberg)).toMatchObject({
      fidelity: 'widening',
      mapping: { precision: 19, scale: 0 },
    });
  });

  it('keeps or drops the time zone explicitly', () => {
    expect(castHub(hub('timestamptz(6)'), hub('timestamp(6)'))).toMatchObject({
      fidelity: 'lossy',
      loss: ['time zone offset'],
    });
    expect(castHub(hub('date'), hub('timestamp(6)'))?.fidelity).toBe('widening');
  });

  it('casts opaque values and containers to their text or document form, never to a scalar', () => {
    expect(castHub(hub('opaque(inet)'), hub('opaque(inet)'))?.fidelity).toBe('exact');
    expect(castHub(hub('opaque(inet)'), hub('string'))).toMatchObject({ fidelity: 'widening', distance: 3 });
    expect(castHub(hub('opaque(inet)'), hub('string(255)'))).toMatchObject({
      fidelity: 'lossy',
      loss: ['text longer than 255'],
    });
    expect(castHub(hub('list'), hub('json'))?.fidelity).toBe('widening');
    expect(castHub(hub('list'), hub('int32'))).toBeNull();
    expect(castHub(hub('binary'), hub('string'))).toBeNull();
  });
});

describe('matrix tables', () => {
  const flavor = parseSeedFile(
    `kind: k\nflavor: {code: f, name: F}\ntypes:\n  - {code: a, render_template: a}\n  - code: v\n    params_schema: {type: object, properties: {n: {type: integer, maximum: 9}}, additionalProperties: false}\n    render_template: 'v({{ n }})'\n`,
  );
  const issues = (text: string) => {
    try {
      parseMatrixTable(text, [flavor]);
    } catch (err) {
      if (err instanceof SeedFileError) return err.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      throw err;
    }
    return [];
  };

  it('accepts a table placing every type', () => {
    expect(issues('flavor: f\ntypes:\n  a: int32\n  v: string(@n)\n')).toEqual([]);
    expect(issues("flavor: f\ntypes:\n  a: { none: 'not data at all' }\n  v: string(@n=4)\n")).toEqual([]);
  });

  it('reports missing and unknown types, bad declarations and unknown params', () => {
    expect(issues('flavor: f\ntypes:\n  a: int32\n  zz: int32\n')).toEqual([
      'types.zz: not a type of f',
      'types.v: missing: every type needs a hub place or {none: reason}',
    ]);
    expect(issues('flavor: f\ntypes:\n  a: int33\n  v: string(@m)\n')).toEqual([
      "types.a: 'int33' is not a hub type",
      "types.v: '@m' is not a parameter of the type",
    ]);
    expect(issues('flavor: g\ntypes: {}\n')).toEqual(["flavor: no seed file for flavor 'g'"]);
  });
});
