// The reference-data seeder (packages/backend/seeds/*.yaml) run directly on the context's database,
// checked through the HTTP API: idempotent, dry-run, restores soft-deleted rows, loads the original
// rule format.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateCastMatrix } from '../../../src/modules/type-system/cast-matrix/matrix.js';
import { loadSeedDirectory, loadSeedFile } from '../../../src/modules/type-system/seed-file.js';
import { seedDataTypeFile, seedDirectory } from '../../../src/seeds/type-system.seeder.js';
import { API, dataTypeOf, listAll, type Row, seedReference } from '../../helpers/catalogue.js';
import { ok, unique } from '../../helpers/factories.js';
import { createTestContext, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let tmp: string;

beforeAll(async () => {
  ctx = await createTestContext();
  tmp = mkdtempSync(join(tmpdir(), 'aide-seed-test-'));
});
afterAll(async () => {
  await ctx.close();
  rmSync(tmp, { recursive: true, force: true });
});

const summaries = (reports: { file: string; summary: string }[]) =>
  Object.fromEntries(reports.map((r) => [r.file.split('/').slice(-2).join('/'), r.summary]));

describe('seeder', () => {
  it('loads every shipped flavor on an empty database, then reports everything unchanged', async () => {
    const first = summaries(await seedReference(ctx));
    const { ['seeds/cast-matrix']: matrixFirst, ...files } = first;
    expect(Object.keys(files).sort()).toEqual([
      'casts/mysql8-to-iceberg_v2.yaml',
      'casts/postgres14-to-iceberg_v2.yaml',
      'kinds/system-kinds.yaml',
      'seeds/avro.yaml',
      'seeds/files.yaml#sftp_files',
      'seeds/files.yaml#storage_files',
      'seeds/hive3.yaml',
      'seeds/iceberg_v2.yaml',
      'seeds/json_schema.yaml',
      'seeds/mysql8.yaml',
      'seeds/postgres14.yaml',
      'seeds/protobuf.yaml',
      'seeds/spark_sql.yaml',
      'seeds/sqlite3.yaml',
    ]);
    // One Arrow type list declared once, seeded as two flavors of two kinds (ADR 0044).
    expect(first['seeds/files.yaml#storage_files']).toBe('+38 ~0 =0 restored 0');
    expect(first['seeds/files.yaml#sftp_files']).toBe('+38 ~0 =0 restored 0');
    expect(first['seeds/protobuf.yaml']).toBe('+39 ~0 =0 restored 0');
    // The five kinds come first, from their own file; postgres14: its flavor, the original's 52 types
    // and the crawler's 37.
    expect(first['kinds/system-kinds.yaml']).toBe('+5 ~0 =0 restored 0');
    expect(first['seeds/postgres14.yaml']).toBe('+90 ~0 =0 restored 0');
    for (const summary of Object.values(files)) expect(summary).toMatch(/\+[1-9]\d* ~0 =/);
    // The matrix inserts every generated rule and classifies the hand-written ones (their rows exist).
    const seeds = await loadSeedDirectory();
    const matrix = generateCastMatrix(
      seeds.matrixTables.map((t) => t.table),
      seeds.castFiles.map((c) => c.file),
    );
    const overrides = matrix.rules.filter((r) => r.origin === 'override').length;
    expect(matrixFirst).toBe(
      `cast matrix: +${matrix.rules.length - overrides} ~${overrides} =0 kept 0; no mapping: +${matrix.gaps.length} ~0 =0 -0`,
    );
    const counts = async () =>
      (await ctx.dataSource.query(
        'SELECT (SELECT count(*) FROM cast_rules)::int AS rules, (SELECT count(*) FROM cast_gaps)::int AS gaps',
      )) as unknown;
    const before = await counts();
    expect(before).toEqual([{ rules: matrix.rules.length, gaps: matrix.gaps.length }]);

    const second = summaries(await seedDirectory(ctx.dataSource));
    const { ['seeds/cast-matrix']: matrixSecond, ...filesSecond } = second;
    for (const summary of Object.values(filesSecond))
      expect(summary).toMatch(/\+0 ~0 =[1-9]\d*( restored 0)?$/);
    expect(second['seeds/postgres14.yaml']).toBe('+0 ~0 =90 restored 0');
    expect(second['seeds/files.yaml#sftp_files']).toBe('+0 ~0 =38 restored 0');
    expect(matrixSecond).toBe(
      `cast matrix: +0 ~0 =${matrix.rules.length} kept 0; no mapping: +0 ~0 =${matrix.gaps.length} -0`,
    );
    expect(await counts()).toEqual(before);
    const kinds = ok(await ctx.request('GET', `${API}/system-kinds?sort=code`, { token: ctx.userToken }));
    expect(kinds.items.map((k: Row) => k.code)).toEqual(['hive', 'kafka', 'rdbms', 'sftp', 'storage']);

    // The HTTP view: the flavors, their data types (params as JSON Schema) and the cast rules.
    const flavors = ok(
      await ctx.request('GET', `${API}/system-flavors?code__in=postgres14,mysql8,sqlite3,iceberg_v2`, {
        token: ctx.userToken,
      }),
    );
    expect(flavors.items.map((f: Row) => f.code).sort()).toEqual([
      'iceberg_v2',
      'mysql8',
      'postgres14',
      'sqlite3',
    ]);
    const numeric = await dataTypeOf(ctx, 'postgres14', 'numeric');
    expect(numeric.params_schema).toEqual({
      type: 'object',
      properties: {
        precision: { type: 'integer', minimum: 1, maximum: 1000 },
        scale: { type: 'integer', minimum: -1000, maximum: 1000 },
      },
      additionalProperties: false,
    });
    expect(numeric).toMatchObject({ created_by: null, row_version: 1, deleted_at: null });
    // One rule into each other flavor (the hand-written one to iceberg_v2 among them).
    const rules = await listAll(ctx, 'cast-rules', `source_data_type_id=${numeric.id}`);
    expect(rules).toHaveLength(seeds.matrixTables.length - 1);
  });

  it("keeps a rule someone else put into a flavor, and drops a 'no mapping' a rule now covers", async () => {
    const point = await dataTypeOf(ctx, 'postgres14', 'point');
    const ndistinct = await dataTypeOf(ctx, 'postgres14', 'pg_ndistinct');
    const [blob, text] = [await dataTypeOf(ctx, 'sqlite3', 'blob'), await dataTypeOf(ctx, 'sqlite3', 'text')];
    const [seeded] = await listAll(
      ctx,
      'cast-rules',
      `source_data_type_id=${point.id}&target_data_type_id=${text.id}`,
    );
    ok(await ctx.request('DELETE', `${API}/cast-rules/${seeded?.id}`, { token: ctx.adminToken }));
    for (const [source, target] of [
      [point, blob],
      [ndistinct, text],
    ]) {
      ok(
        await ctx.request('POST', `${API}/cast-rules`, {
          token: ctx.adminToken,
          body: { source_data_type_id: source?.id, target_data_type_id: target?.id, safety: 'unsafe' },
        }),
        201,
      );
    }
    const run = summaries(await seedDirectory(ctx.dataSource));
    expect(run['seeds/cast-matrix']).toMatch(/^cast matrix: \+0 ~0 =\d+ kept 1; no mapping: \+0 ~0 =\d+ -1$/);
    const resolved = ok(
      await ctx.request('POST', `${API}/cast-rules/resolve`, {
        token: ctx.userToken,
        body: { data_type_id: point.id, target_flavor: 'sqlite3' },
      }),
    );
    expect(resolved).toMatchObject({ target_code: 'blob', fidelity: null });
  });

  it('dry-run plans without writing', async () => {
    const varchar = await dataTypeOf(ctx, 'postgres14', 'varchar');
    const edited = ok(
      await ctx.request('PUT', `${API}/data-types/${varchar.id}`, {
        token: ctx.adminToken,
        body: { description: 'edited by hand', row_version: varchar.row_version },
      }),
    );
    const dry = summaries(await seedDirectory(ctx.dataSource, undefined, { dryRun: true }));
    expect(dry['seeds/postgres14.yaml']).toBe('+0 ~1 =89 restored 0');
    expect(ok(await ctx.request('GET', `${API}/data-types/${varchar.id}`, { token: ctx.userToken }))).toEqual(
      edited,
    );

    // A new file in dry-run: planned as inserts, nothing appears.
    const code = unique('dryflavor');
    const path = join(tmp, `${code}.yaml`);
    writeFileSync(
      path,
      `kind: { code: ${code}_kind, name: Dry }\nflavor: { code: ${code}, name: Dry }\ntypes:\n  - code: t\n    render_template: t\n`,
    );
    const plan = await seedDataTypeFile(ctx.dataSource, await loadSeedFile(path), { dryRun: true });
    expect(plan.summary).toBe('+3 ~0 =0 restored 0');
    expect(
      ok(await ctx.request('GET', `${API}/system-flavors?code=${code}`, { token: ctx.userToken })).total,
    ).toBe(0);
    expect(
      ok(await ctx.request('GET', `${API}/system-kinds?code=${code}_kind`, { token: ctx.userToken })).total,
    ).toBe(0);

    // The real run puts the file's description back.
    const real = summaries(await seedDirectory(ctx.dataSource));
    expect(real['seeds/postgres14.yaml']).toBe('+0 ~1 =89 restored 0');
    const reseeded = ok(
      await ctx.request('GET', `${API}/data-types/${varchar.id}`, { token: ctx.userToken }),
    );
    expect(reseeded.description).toBe(varchar.description);
    expect(reseeded.row_version).toBe(edited.row_version + 1);
  });

  it('restores a soft-deleted seeded type on the next run (same id)', async () => {
    const inet = await dataTypeOf(ctx, 'postgres14', 'inet');
    ok(await ctx.request('DELETE', `${API}/data-types/${inet.id}`, { token: ctx.adminToken }));
    expect((await ctx.request('GET', `${API}/data-types/${inet.id}`, { token: ctx.userToken })).status).toBe(
      404,
    );
    const run = summaries(await seedDirectory(ctx.dataSource));
    expect(run['seeds/postgres14.yaml']).toBe('+0 ~0 =89 restored 1');
    const restored = ok(await ctx.request('GET', `${API}/data-types/${inet.id}`, { token: ctx.userToken }));
    expect(restored).toMatchObject({
      id: inet.id,
      code: 'inet',
      deleted_at: null,
      render_template: inet.render_template,
    });
    expect(summaries(await seedDirectory(ctx.dataSource))['seeds/postgres14.yaml']).toBe(
      '+0 ~0 =90 restored 0',
    );
  });

  it('loads a file written in the original rule format, stored as JSON Schema, and renders it', async () => {
    const code = unique('legacy');
    const path = join(tmp, `${code}.yaml`);
    writeFileSync(
      path,
      [
        'kind:',
        `  code: ${code}_kind`,
        '  name: Legacy kind',
        'flavor:',
        `  code: ${code}`,
        '  name: Legacy flavor',
        "  versions: ['1']",
        'types:',
        '  - code: dec',
        '    params_schema:',
        '      precision: { type: int, required: false, default: null, min: 1, max: 38 }',
        '      scale: { type: int, required: false, default: null, min: 0, max: 38 }',
        "    render_template: 'dec({precision},{scale})'",
        '  - code: str',
        '    params_schema:',
        '      length: { type: int, required: true, min: 1 }',
        "    render_template: 'str({length})'",
        '  - code: flag',
        '',
      ].join('\n'),
    );
    const plan = await seedDataTypeFile(ctx.dataSource, await loadSeedFile(path));
    expect(plan.summary).toBe('+5 ~0 =0 restored 0');
    const dec = await dataTypeOf(ctx, code, 'dec');
    expect(dec.params_schema).toEqual({
      type: 'object',
      properties: {
        precision: { type: 'integer', minimum: 1, maximum: 38 },
        scale: { type: 'integer', minimum: 0, maximum: 38 },
      },
      additionalProperties: false,
    });
    expect(dec.render_template).toContain('{% if precision is defined %}');
    const str = await dataTypeOf(ctx, code, 'str');
    expect(str.params_schema).toMatchObject({
      required: ['length'],
      properties: { length: { type: 'integer', minimum: 1 } },
    });

    const render = async (dataTypeId: string, params: Record<string, unknown> | null) => {
      const instance = ok(
        await ctx.request('POST', `${API}/type-instances`, {
          token: ctx.userToken,
          body: { data_type_id: dataTypeId, type_params: params },
        }),
        201,
      );
      return ok(
        await ctx.request('GET', `${API}/type-instances/${instance.id}/render`, { token: ctx.userToken }),
      ).rendered;
    };
    expect(await render(dec.id, { precision: 10, scale: 2 })).toBe('dec(10,2)');
    expect(await render(dec.id, { precision: 10 })).toBe('dec(10)');
    expect(await render(dec.id, null)).toBe('dec');
    expect(await render(str.id, { length: 3 })).toBe('str(3)');
    expect(
      (
        await ctx.request('POST', `${API}/type-instances`, {
          token: ctx.userToken,
          body: { data_type_id: str.id },
        })
      ).status,
    ).toBe(422);

    expect((await seedDataTypeFile(ctx.dataSource, await loadSeedFile(path))).summary).toBe(
      '+0 ~0 =5 restored 0',
    );
  });
});
