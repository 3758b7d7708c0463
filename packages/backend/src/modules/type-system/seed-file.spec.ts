import { DATASET_KIND_SYSTEM_KINDS } from '@aide/schemas';
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyParamMapping } from './cast-mapping.js';
import { validateTypeParams, type ParamsJsonSchema } from './params-schema.js';
import {
  checkCastSeedFile,
  loadSeedDirectory,
  loadSeedFile,
  parseCastSeedFile,
  parseSeedFile,
  SeedFileError,
  seedFileStem,
  type SeedDataType,
  type SeedFile,
} from './seed-file.js';
import { renderTemplate } from './template-renderer.js';

// Codes added after the original's for aide-crawler (composite, multiranges, system types, …).
const CRAWLER_POSTGRES14_CODES = 37;

// aide-original §5.4, in its order.
const ORIGINAL_POSTGRES14_CODES = [
  'smallint',
  'integer',
  'bigint',
  'decimal',
  'numeric',
  'real',
  'double',
  'smallserial',
  'serial',
  'bigserial',
  'money',
  'char',
  'varchar',
  'text',
  'bytea',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'boolean',
  'enum',
  'point',
  'line',
  'lseg',
  'box',
  'path',
  'polygon',
  'circle',
  'inet',
  'cidr',
  'macaddr',
  'macaddr8',
  'bit',
  'varbit',
  'tsvector',
  'tsquery',
  'uuid',
  'xml',
  'json',
  'jsonb',
  'array',
  'int4range',
  'int8range',
  'numrange',
  'tsrange',
  'tstzrange',
  'daterange',
  'oid',
  'pg_lsn',
  'txid_snapshot',
];
const ORIGINAL_ICEBERG_CODES = [
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'string',
  'uuid',
  'binary',
  'decimal',
  'fixed',
  'list',
  'map',
  'struct',
];
// aide-original §5.6: source → [target, safety].
const ORIGINAL_PG_CASTS: Record<string, [string, string]> = {
  bigint: ['long', 'implicit'],
  integer: ['int', 'implicit'],
  smallint: ['int', 'implicit'],
  smallserial: ['int', 'implicit'],
  serial: ['int', 'implicit'],
  bigserial: ['long', 'implicit'],
  real: ['float', 'implicit'],
  double: ['double', 'implicit'],
  boolean: ['boolean', 'implicit'],
  uuid: ['uuid', 'implicit'],
  date: ['date', 'implicit'],
  timestamptz: ['timestamptz', 'implicit'],
  bytea: ['binary', 'implicit'],
  text: ['string', 'implicit'],
  decimal: ['decimal', 'implicit'],
  numeric: ['decimal', 'safe'],
  varchar: ['string', 'safe'],
  char: ['string', 'safe'],
  time: ['time', 'safe'],
  timestamp: ['timestamp', 'safe'],
  array: ['list', 'safe'],
  json: ['string', 'unsafe'],
  jsonb: ['string', 'unsafe'],
};

/** Every child a container template may read, so each seeded type renders in isolation. */
const CHILDREN = {
  children: { item: 'integer', element: 'int', key: 'string', value: 'long' },
  fields: [
    { name: 'a', type: 'int' },
    { name: 'b', type: 'string' },
  ],
};

/** A valid value for each parameter, from its schema: all of them, or only the required ones. */
function sampleParams(schema: ParamsJsonSchema, which: 'required' | 'all'): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const params: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (which === 'required' && !required.has(name)) {
      continue;
    }
    if (property.enum !== undefined) {
      params[name] = property.enum[0];
    } else if (property.type === 'integer' || property.type === 'number') {
      params[name] = Math.min(Math.max(10, property.minimum ?? 10), property.maximum ?? 10);
    } else if (property.type === 'boolean') {
      params[name] = true;
    } else {
      params[name] = 'x';
    }
  }
  return params;
}

// Flavors whose types render as JSON (Avro schemas): their children are JSON too, and the text parses.
const JSON_FLAVORS = new Set(['avro', 'json_schema']);
const JSON_CHILDREN = {
  children: { item: '"int"', element: '"int"', key: '"string"', value: '"long"' },
  fields: [
    { name: 'a', type: '"int"' },
    { name: 'b', type: '"string"' },
  ],
};

// Protobuf messages and oneofs list their fields in braces, as a .proto file does.
const BRACED = new Set(['protobuf.message', 'protobuf.oneof']);
// Params Arrow spells its own way: interval unit year_month → month_interval, keys_sorted: true → keys_sorted.
const SPELLED_OTHERWISE: Record<string, string[]> = Object.fromEntries(
  ['storage_files', 'sftp_files'].flatMap((f) => [
    [`${f}.interval`, ['unit']],
    [`${f}.map`, ['keys_sorted']],
  ]),
);

function expectCleanRender(
  type: SeedDataType,
  params: Record<string, unknown>,
  json = false,
  braced = false,
): string {
  expect(validateTypeParams(type.params_schema, params)).toEqual({ ok: true, value: params });
  const rendered = renderTemplate(type.render_template ?? '', {
    ...(json ? JSON_CHILDREN : CHILDREN),
    params,
  });
  expect(rendered).not.toBe('');
  if (json) {
    expect(() => JSON.parse(rendered) as unknown).not.toThrow();
    return rendered;
  }
  expect(rendered).not.toMatch(braced ? /\{\{|\{%|%\}|\}\}|\{\s*\}/ : /[{}]/);
  expect(rendered).not.toMatch(/\(\s*\)|\(,|,\)|,,/);
  return rendered;
}

async function tempFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'aide-seed-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

function seedIssues(parse: () => unknown): SeedFileError['issues'] {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(SeedFileError);
    return (err as SeedFileError).issues;
  }
  throw new Error('expected a SeedFileError');
}

const seeds = await loadSeedDirectory();
const typeFile = (flavor: string): SeedFile => {
  const found = seeds.typeFiles.find((entry) => entry.file.flavor.code === flavor);
  if (found === undefined) {
    throw new Error(`no seed file for ${flavor}`);
  }
  return found.file;
};
const allTypes = seeds.typeFiles.flatMap(({ file }) =>
  file.types.map((type) => [`${file.flavor.code}.${type.code}`, type] as const),
);

describe('shipped seed files', () => {
  it('declare the five system kinds, and every flavor names one of them', () => {
    const kinds = seeds.kindFiles.flatMap((entry) => entry.file.kinds.map((k) => k.code));
    expect(kinds.sort()).toEqual([...Object.keys(DATASET_KIND_SYSTEM_KINDS)].sort());
    for (const { file } of seeds.typeFiles) expect(kinds).toContain(file.kind.code);
  });

  it('load, with file names matching their flavor codes', () => {
    expect(seeds.typeFiles.map((entry) => entry.file.flavor.code).sort()).toEqual(
      expect.arrayContaining(['iceberg_v2', 'mysql8', 'postgres14', 'sqlite3']),
    );
    for (const { path, file } of seeds.typeFiles) {
      // A file of several flavors (files.yaml: storage_files, sftp_files) is named for what they share.
      const shared = seeds.typeFiles.filter((entry) => entry.path === path).length > 1;
      if (!shared) expect(seedFileStem(path)).toBe(file.flavor.code);
      expect(file.types.every((type) => type.render_template !== null)).toBe(true);
    }
    expect(seeds.castFiles.map((entry) => seedFileStem(entry.path)).sort()).toEqual(
      expect.arrayContaining(['mysql8-to-iceberg_v2', 'postgres14-to-iceberg_v2']),
    );
  });

  it('give spark_sql every type name a DataCoolie lakehouse hint uses (DATE, DECIMAL, INTEGER, …)', () => {
    const codes = typeFile('spark_sql').types.map((type) => type.code);
    for (const hint of [
      'DATE',
      'DECIMAL',
      'INTEGER',
      'INT',
      'BIGINT',
      'LONG',
      'STRING',
      'TIMESTAMP',
      'TIMESTAMP_NTZ',
    ]) {
      expect(codes).toContain(hint.toLowerCase());
    }
    expect(typeFile('spark_sql').kind.code).toBe('hive');
    expect(typeFile('hive3').types.map((type) => type.code)).toEqual(
      expect.arrayContaining(['array', 'map', 'struct', 'uniontype', 'varchar', 'char', 'decimal']),
    );
  });

  it('keep the original postgres14 and iceberg_v2 catalogues', () => {
    const postgres = typeFile('postgres14');
    expect(postgres.kind).toEqual({ code: 'rdbms' });
    expect(postgres.flavor).toEqual({
      code: 'postgres14',
      name: 'PostgreSQL',
      vendor: 'PostgreSQL Global Development Group',
      versions: ['14'],
    });
    // The original's codes come first, in its order; the crawler's additions follow.
    expect(postgres.types.map((type) => type.code).slice(0, ORIGINAL_POSTGRES14_CODES.length)).toEqual(
      ORIGINAL_POSTGRES14_CODES,
    );
    expect(postgres.types).toHaveLength(ORIGINAL_POSTGRES14_CODES.length + CRAWLER_POSTGRES14_CODES);
    // postgres14.yaml is written in the original rule format, to keep the conversion exercised.
    expect(postgres.types.every((type) => type.params_format === 'original-rules')).toBe(true);
    const iceberg = typeFile('iceberg_v2');
    expect(iceberg.kind).toEqual({ code: 'hive' });
    expect(iceberg.types.map((type) => type.code)).toEqual(ORIGINAL_ICEBERG_CODES);
    expect(iceberg.types.find((type) => type.code === 'decimal')?.params_schema.required).toEqual([
      'precision',
      'scale',
    ]);
    expect(typeFile('mysql8').kind.code).toBe('rdbms');
    expect(typeFile('sqlite3').kind.code).toBe('rdbms');
  });

  it.each(allTypes)('%s renders with only its required params and with all of them', (key, type) => {
    const json = JSON_FLAVORS.has(key.split('.')[0] ?? '');
    // A JSON fragment param (Avro enum symbols) gets a JSON sample.
    const sample = (which: 'required' | 'all') => {
      const params = sampleParams(type.params_schema, which);
      if (json && params['symbols'] !== undefined) params['symbols'] = '"X"';
      return params;
    };
    const minimal = expectCleanRender(type, sample('required'), json, BRACED.has(key));
    const full = expectCleanRender(type, sample('all'), json, BRACED.has(key));
    for (const [name, value] of Object.entries(sample('all'))) {
      if (!SPELLED_OTHERWISE[key]?.includes(name)) expect(full).toContain(String(value));
    }
    if (Object.keys(type.params_schema.properties ?? {}).length === 0) {
      expect(full).toBe(minimal);
    }
  });

  it('render the documented examples', () => {
    const pg = (code: string) => typeFile('postgres14').types.find((type) => type.code === code)!;
    expect(renderTemplate(pg('numeric').render_template!, { params: { precision: 12, scale: 2 } })).toBe(
      'numeric(12,2)',
    );
    expect(renderTemplate(pg('varchar').render_template!, {})).toBe('varchar');
    expect(renderTemplate(pg('timestamptz').render_template!, {})).toBe('timestamp with time zone');
    expect(renderTemplate(pg('array').render_template!, { children: { item: 'integer' } })).toBe('integer[]');
    expect(renderTemplate(pg('double').render_template!, {})).toBe('double precision');
  });

  it('include the original postgres14 → iceberg_v2 cast rules', () => {
    const casts = seeds.castFiles.find(
      (entry) => seedFileStem(entry.path) === 'postgres14-to-iceberg_v2',
    )!.file;
    for (const [source, [target, safety]] of Object.entries(ORIGINAL_PG_CASTS)) {
      const rule = casts.mappings.find((m) => m.source.code === source);
      expect([source, rule?.target, rule?.safety]).toEqual([
        source,
        { flavor: 'iceberg_v2', code: target },
        safety,
      ]);
    }
    expect(casts.mappings.find((m) => m.source.code === 'numeric')?.param_mapping).toEqual({
      precision: '@precision',
      scale: '@scale',
    });
  });

  it('map every source with all its params to valid target params', () => {
    for (const { file } of seeds.castFiles) {
      for (const rule of file.mappings) {
        const source = typeFile(rule.source.flavor).types.find((type) => type.code === rule.source.code)!;
        const target = typeFile(rule.target.flavor).types.find((type) => type.code === rule.target.code)!;
        const params = applyParamMapping(rule.param_mapping, sampleParams(source.params_schema, 'all'));
        const result = validateTypeParams(target.params_schema, params);
        expect([rule.source.code, rule.target.code, result.ok]).toEqual([
          rule.source.code,
          rule.target.code,
          true,
        ]);
      }
    }
    const numeric = applyParamMapping(
      { precision: '@precision', scale: '@scale' },
      { precision: 12, scale: 2 },
    );
    const decimal = typeFile('iceberg_v2').types.find((type) => type.code === 'decimal')!;
    expect(renderTemplate(decimal.render_template!, { params: numeric })).toBe('decimal(12,2)');
  });
});

describe('seed file format', () => {
  const minimal = (types: string) => `kind: {code: rdbms, name: Relational Database}
flavor: {code: test, name: Test}
types:
${types}`;

  it('loads a file in the original format unchanged: rule maps, {param} templates, null templates', async () => {
    const path = await tempFile(
      'postgres14.yaml',
      `kind:
  code: rdbms
  name: Relational Database
flavor:
  code: postgres14
  name: PostgreSQL
  vendor: PostgreSQL Global Development Group
  versions: ["14"]
types:
  - code: integer
    params_schema: {}
    render_template: integer
  - code: numeric
    params_schema:
      precision: {type: int, required: false, default: null, min: 1, max: 1000}
      scale: {type: int, required: false, default: null, min: -1000, max: 1000}
    render_template: "numeric({precision},{scale})"
  - code: timestamptz
    params_schema:
      precision: {type: int, required: false, default: null, min: 0, max: 6}
    render_template: "timestamp({precision}) with time zone"
  - code: array
    params_schema: {}
    render_template: null
`,
    );
    const file = await loadSeedFile(path);
    expect(file.flavor.versions).toEqual(['14']);
    const [integer, numeric, timestamptz, array] = file.types;
    expect(integer?.params_format).toBe('original-rules');
    expect(integer?.description).toBeUndefined();
    expect(array?.render_template).toBeNull();
    expect(validateTypeParams(numeric.params_schema, { precision: 1001 }).ok).toBe(false);
    expect(renderTemplate(numeric.render_template!, { params: { precision: 12, scale: 2 } })).toBe(
      'numeric(12,2)',
    );
    expect(renderTemplate(numeric.render_template!, {})).toBe('numeric');
    expect(renderTemplate(timestamptz.render_template!, {})).toBe('timestamp with time zone');
  });

  it('applies defaults: params_schema {}, render_template null, versions []', () => {
    const file = parseSeedFile(minimal('  - code: x'));
    expect(file.flavor).toEqual({ code: 'test', name: 'Test', vendor: null, versions: [] });
    expect(file.types[0]).toEqual({
      code: 'x',
      params_schema: { type: 'object', properties: {}, additionalProperties: false },
      render_template: null,
      params_format: 'original-rules',
    });
  });

  it('rejects unknown keys at every level', () => {
    expect(seedIssues(() => parseSeedFile(`${minimal('  - code: x')}\nextra: 1`))[0]?.path).toEqual([]);
    expect(seedIssues(() => parseSeedFile(minimal('  - code: x\n    colour: red')))[0]?.path).toEqual([
      'types',
      0,
    ]);
    expect(
      seedIssues(() =>
        parseSeedFile('kind: {code: k, name: K, x: 1}\nflavor: {code: f, name: F}\ntypes: []'),
      )[0]?.path,
    ).toEqual(['kind']);
  });

  it('rejects duplicate codes, a non-mapping root and invalid YAML', () => {
    expect(seedIssues(() => parseSeedFile(minimal('  - code: x\n  - code: x')))[0]?.message).toBe(
      'Duplicate type codes in seed file: [x]',
    );
    expect(seedIssues(() => parseSeedFile('- a\n- b'))[0]?.message).toMatch(/root/);
    expect(seedIssues(() => parseSeedFile('kind: [unclosed'))[0]?.message).toMatch(/invalid YAML/);
    expect(seedIssues(() => parseSeedFile('kind: {code: a}\nkind: {code: b}'))[0]?.message).toMatch(
      /invalid YAML/,
    );
  });

  it('validates every params_schema and render_template, with paths', () => {
    const issues = seedIssues(() =>
      parseSeedFile(
        minimal(`  - code: a
    params_schema: {length: {type: decimal}}
  - code: b
    params_schema: {type: object, properties: {length: {type: integer}}}
    render_template: "varchar({{ lenght }})"
  - code: c
    render_template: "{{ ''.__class__ }}"`),
      ),
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      ['types', 0, 'params_schema', 'length', 'type'],
      ['types', 1, 'render_template'],
      ['types', 2, 'render_template'],
    ]);
    expect(issues[1]?.message).toMatch(/unknown variable 'lenght'/);
  });

  it('reports an unreadable file as a SeedFileError', async () => {
    await expect(loadSeedFile('/nonexistent/seed.yaml')).rejects.toBeInstanceOf(SeedFileError);
  });
});

describe('cast seed file format', () => {
  it('accepts the original `params` key as well as `param_mapping`', () => {
    const file = parseCastSeedFile(`mappings:
  - source: {flavor: postgres14, code: numeric}
    target: {flavor: iceberg_v2, code: decimal}
    safety: safe
    params: {precision: "@precision", scale: "@scale"}
  - source: {flavor: postgres14, code: text}
    target: {flavor: iceberg_v2, code: string}
    safety: implicit
`);
    expect(file.mappings[0]?.param_mapping).toEqual({ precision: '@precision', scale: '@scale' });
    expect(file.mappings[1]?.param_mapping).toEqual({});
  });

  it('rejects unknown keys, bad safeties, duplicates and both mapping keys', () => {
    const rule = 'source: {flavor: a, code: x}\n    target: {flavor: b, code: y}';
    expect(seedIssues(() => parseCastSeedFile(`mappings:\n  - ${rule}\n    safety: lossy`))[0]?.path).toEqual(
      ['mappings', 0, 'safety'],
    );
    expect(
      seedIssues(() => parseCastSeedFile(`mappings:\n  - ${rule}\n    safety: safe\n    note: x`))[0]?.path,
    ).toEqual(['mappings', 0]);
    expect(
      seedIssues(() =>
        parseCastSeedFile(`mappings:\n  - ${rule}\n    safety: safe\n  - ${rule}\n    safety: unsafe`),
      )[0]?.message,
    ).toMatch(/Duplicate cast rules/);
    expect(
      seedIssues(() =>
        parseCastSeedFile(`mappings:\n  - ${rule}\n    safety: safe\n    params: {}\n    param_mapping: {}`),
      )[0]?.message,
    ).toMatch(/not both/);
  });

  it('checks rules against the data types', () => {
    const casts = parseCastSeedFile(`mappings:
  - source: {flavor: postgres14, code: numeric}
    target: {flavor: iceberg_v2, code: decimal}
    safety: safe
    param_mapping: {precision: "@precison", digits: 3}
  - source: {flavor: postgres14, code: nope}
    target: {flavor: iceberg_v2, code: string}
    safety: safe
`);
    const issues = seedIssues(() =>
      checkCastSeedFile(casts, [typeFile('postgres14'), typeFile('iceberg_v2')]),
    );
    expect(issues).toEqual([
      {
        path: ['mappings', 0, 'param_mapping', 'precision'],
        message: "'precison' is not a parameter of the source type",
      },
      { path: ['mappings', 0, 'param_mapping', 'digits'], message: 'is not a parameter of the target type' },
      {
        path: ['mappings', 1, 'source'],
        message: "DataType not found for flavor='postgres14' code='nope'. Seed data types first.",
      },
    ]);
  });
});
