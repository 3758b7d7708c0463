import type { DataSource, EntityManager } from 'typeorm';
import { join } from 'node:path';
import { generateCastMatrix } from '../modules/type-system/cast-matrix/matrix.js';
import {
  DEFAULT_SEEDS_DIR,
  loadSeedDirectory,
  type CastSeedFile,
  type KindSeedFile,
  type SeedFile,
} from '../modules/type-system/seed-file.js';
import {
  type CastSeedPlan,
  type ExistingCastRuleRow,
  type ExistingSeedState,
  planCastSeed,
  planKindSeed,
  planSeed,
  type SeedPlan,
  type SeedRowChange,
} from '../modules/type-system/seed-plan.js';
import { seedCastMatrix, typeIds } from './cast-matrix.seeder.js';

export interface SeedOptions {
  dryRun?: boolean;
  /** Written as created_by/updated_by; null for the system itself. */
  actorId?: string | null;
}

async function existingState(m: EntityManager, file: SeedFile): Promise<ExistingSeedState> {
  const kinds: ExistingSeedState['kinds'] = await m.query(
    'SELECT id, code, name, deleted_at IS NOT NULL AS deleted FROM system_kinds WHERE code = $1 ORDER BY deleted_at DESC NULLS FIRST',
    [file.kind.code],
  );
  const flavors: ExistingSeedState['flavors'] = await m.query(
    `SELECT f.id, f.code, f.name, f.vendor, f.versions, k.code AS kind_code, f.deleted_at IS NOT NULL AS deleted
     FROM system_flavors f JOIN system_kinds k ON k.id = f.kind_id WHERE f.code = $1
     ORDER BY f.deleted_at DESC NULLS FIRST`,
    [file.flavor.code],
  );
  const dataTypes: ExistingSeedState['dataTypes'] = await m.query(
    `SELECT t.id, f.code AS flavor_code, t.code, t.params_schema, t.render_template, t.description,
            t.deleted_at IS NOT NULL AS deleted
     FROM data_types t JOIN system_flavors f ON f.id = t.system_flavor_id
     WHERE f.code = $1 AND f.deleted_at IS NULL ORDER BY t.deleted_at DESC NULLS FIRST`,
    [file.flavor.code],
  );
  return { kinds, flavors, dataTypes };
}

async function idOf(m: EntityManager, sql: string, params: unknown[]): Promise<string> {
  const rows: { id: string }[] = await m.query(sql, params);
  if (!rows[0]) throw new Error(`seed: no row for ${JSON.stringify(params)}`);
  return rows[0].id;
}

/** Writes one row of a plan: an insert, an update of the owned attributes, or a restore with them. */
async function applyChange(m: EntityManager, change: SeedRowChange, restore: boolean, actor: string | null) {
  const restoreSql = restore ? ', deleted_at = NULL, deleted_by = NULL' : '';
  switch (change.entity) {
    case 'kind': {
      const v = change.values;
      if (!change.existingId) {
        await m.query(
          'INSERT INTO system_kinds (code, name, created_by, updated_by) VALUES ($1, $2, $3, $3)',
          [v.code, v.name, actor],
        );
      } else {
        await m.query(
          `UPDATE system_kinds SET name = $2, updated_by = $3, updated_at = now(), row_version = row_version + 1${restoreSql} WHERE id = $1`,
          [change.existingId, v.name, actor],
        );
      }
      return;
    }
    case 'flavor': {
      const v = change.values;
      const kinds: { id: string }[] = await m.query(
        'SELECT id FROM system_kinds WHERE code = $1 AND deleted_at IS NULL',
        [v.kind_code],
      );
      if (!kinds[0]) {
        throw new Error(
          `seed: flavor '${v.code}' names kind '${v.kind_code}', which is not seeded (kinds/*.yaml)`,
        );
      }
      const kindId = kinds[0].id;
      if (!change.existingId) {
        await m.query(
          `INSERT INTO system_flavors (code, name, vendor, versions, kind_id, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $6)`,
          [v.code, v.name, v.vendor, v.versions, kindId, actor],
        );
      } else {
        await m.query(
          `UPDATE system_flavors SET name = $2, vendor = $3, versions = $4, kind_id = $5, updated_by = $6,
             updated_at = now(), row_version = row_version + 1${restoreSql} WHERE id = $1`,
          [change.existingId, v.name, v.vendor, v.versions, kindId, actor],
        );
      }
      return;
    }
    case 'data_type': {
      const v = change.values;
      const flavorId = await idOf(m, 'SELECT id FROM system_flavors WHERE code = $1 AND deleted_at IS NULL', [
        v.flavor_code,
      ]);
      const description = v.description === undefined ? null : v.description;
      if (!change.existingId) {
        await m.query(
          `INSERT INTO data_types (system_flavor_id, code, params_schema, render_template, description, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $6)`,
          [flavorId, v.code, JSON.stringify(v.params_schema), v.render_template, description, actor],
        );
      } else {
        await m.query(
          `UPDATE data_types SET params_schema = $2, render_template = $3,
             description = CASE WHEN $4 THEN $5 ELSE description END, updated_by = $6,
             updated_at = now(), row_version = row_version + 1${restoreSql} WHERE id = $1`,
          [
            change.existingId,
            JSON.stringify(v.params_schema),
            v.render_template,
            v.description !== undefined,
            description,
            actor,
          ],
        );
      }
      return;
    }
  }
}

/** Inserts new data types of one flavor in one statement. */
async function insertDataTypes(
  m: EntityManager,
  flavorCode: string,
  changes: readonly SeedRowChange[],
  actor: string | null,
): Promise<void> {
  if (changes.length === 0) return;
  const flavorId = await idOf(m, 'SELECT id FROM system_flavors WHERE code = $1 AND deleted_at IS NULL', [
    flavorCode,
  ]);
  const rows = changes.flatMap((c) =>
    c.entity === 'data_type'
      ? [
          {
            code: c.values.code,
            params_schema: c.values.params_schema,
            render_template: c.values.render_template,
            description: c.values.description ?? null,
          },
        ]
      : [],
  );
  await m.query(
    `INSERT INTO data_types (system_flavor_id, code, params_schema, render_template, description, created_by, updated_by)
     SELECT $1, x.code, x.params_schema, x.render_template, x.description, $3, $3
     FROM jsonb_to_recordset($2::jsonb) AS x(code text, params_schema jsonb, render_template text, description text)`,
    [flavorId, JSON.stringify(rows), actor],
  );
}

/**
 * Seeds one data-type file idempotently (by natural keys; restores soft-deleted rows; never deletes).
 * With `dryRun` the plan is computed inside a transaction that is rolled back.
 */
export async function seedDataTypeFile(
  dataSource: DataSource,
  file: SeedFile,
  options: SeedOptions = {},
): Promise<SeedPlan> {
  const actor = options.actorId ?? null;
  return dataSource.transaction(async (m) => {
    // One seeder at a time: two replicas starting together must not both insert.
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('aide-seed', 0))`);
    const plan = planSeed(await existingState(m, file), file);
    if (options.dryRun) return plan;
    // Kinds before flavors before data types: each change looks its parent up by code.
    const order = (c: SeedRowChange) => ({ kind: 0, flavor: 1, data_type: 2 })[c.entity];
    // New data types go in one statement (a fresh database inserts hundreds); the rest row by row.
    const newTypes = plan.inserted.filter((c) => c.entity === 'data_type');
    const writes = [
      ...plan.inserted.filter((c) => c.entity !== 'data_type').map((c) => ({ c, restore: false })),
      ...plan.updated.map((c) => ({ c, restore: false })),
      ...plan.restored.map((c) => ({ c, restore: true })),
    ].sort((a, b) => order(a.c) - order(b.c));
    for (const { c, restore } of writes.filter((w) => w.c.entity !== 'data_type')) {
      await applyChange(m, c, restore, actor);
    }
    await insertDataTypes(m, file.flavor.code, newTypes, actor);
    for (const { c, restore } of writes.filter((w) => w.c.entity === 'data_type')) {
      await applyChange(m, c, restore, actor);
    }
    return plan;
  });
}

/** Seeds one kind file idempotently (by code; restores soft-deleted kinds; never deletes). */
export async function seedKindFile(
  dataSource: DataSource,
  file: KindSeedFile,
  options: SeedOptions = {},
): Promise<SeedPlan> {
  const actor = options.actorId ?? null;
  return dataSource.transaction(async (m) => {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('aide-seed', 0))`);
    const kinds: ExistingSeedState['kinds'] = await m.query(
      'SELECT id, code, name, deleted_at IS NOT NULL AS deleted FROM system_kinds WHERE code = ANY($1) ORDER BY deleted_at DESC NULLS FIRST',
      [file.kinds.map((k) => k.code)],
    );
    const plan = planKindSeed(kinds, file);
    if (options.dryRun) return plan;
    for (const c of plan.inserted) await applyChange(m, c, false, actor);
    for (const c of plan.updated) await applyChange(m, c, false, actor);
    for (const c of plan.restored) await applyChange(m, c, true, actor);
    return plan;
  });
}

interface CastRuleRow {
  id: string;
  source_flavor: string;
  source_code: string;
  target_flavor: string;
  target_code: string;
  safety: ExistingCastRuleRow['safety'];
  param_mapping: ExistingCastRuleRow['param_mapping'];
}

/** Seeds one cast-rule file idempotently: upsert by (source, target) data types; never deletes. */
export async function seedCastFile(
  dataSource: DataSource,
  file: CastSeedFile,
  options: SeedOptions = {},
): Promise<CastSeedPlan> {
  const actor = options.actorId ?? null;
  return dataSource.transaction(async (m) => {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('aide-seed', 0))`);
    const rows: CastRuleRow[] = await m.query(
      `SELECT r.id, sf.code AS source_flavor, s.code AS source_code, tf.code AS target_flavor, t.code AS target_code,
                r.safety, r.param_mapping
         FROM cast_rules r
         JOIN data_types s ON s.id = r.source_data_type_id JOIN system_flavors sf ON sf.id = s.system_flavor_id
         JOIN data_types t ON t.id = r.target_data_type_id JOIN system_flavors tf ON tf.id = t.system_flavor_id`,
    );
    const existing: ExistingCastRuleRow[] = rows.map((r) => ({
      id: r.id,
      source: { flavor: r.source_flavor, code: r.source_code },
      target: { flavor: r.target_flavor, code: r.target_code },
      safety: r.safety,
      param_mapping: r.param_mapping,
    }));
    const plan = planCastSeed(existing, file);
    if (options.dryRun) return plan;
    const ids = await typeIds(m, [
      ...new Set(plan.inserted.flatMap((c) => [c.values.source.flavor, c.values.target.flavor])),
    ]);
    const typeId = (ref: { flavor: string; code: string }) => {
      const id = ids.get(`${ref.flavor}.${ref.code}`);
      if (id === undefined) throw new Error(`seed: no row for ${JSON.stringify([ref.flavor, ref.code])}`);
      return id;
    };
    if (plan.inserted.length > 0) {
      await m.query(
        `INSERT INTO cast_rules (source_data_type_id, target_data_type_id, safety, param_mapping, created_by, updated_by)
         SELECT x.source, x.target, x.safety, x.param_mapping, $2, $2
         FROM jsonb_to_recordset($1::jsonb) AS x(source uuid, target uuid, safety text, param_mapping jsonb)`,
        [
          JSON.stringify(
            plan.inserted.map((c) => ({
              source: typeId(c.values.source),
              target: typeId(c.values.target),
              safety: c.values.safety,
              param_mapping: c.values.param_mapping,
            })),
          ),
          actor,
        ],
      );
    }
    for (const c of plan.updated) {
      await m.query(
        `UPDATE cast_rules SET safety = $2, param_mapping = $3, updated_by = $4, updated_at = now(),
           row_version = row_version + 1 WHERE id = $1`,
        [c.existingId, c.values.safety, JSON.stringify(c.values.param_mapping), actor],
      );
    }
    return plan;
  });
}

export interface SeedReport {
  file: string;
  summary: string;
}

/**
 * Every seed file of the directory: kinds, then data types, then the hand-written cast rules, then the
 * cast matrix generated from `cast-matrix/*.yaml` (with those rules as overrides).
 */
export async function seedDirectory(
  dataSource: DataSource,
  dir?: string,
  options: SeedOptions = {},
): Promise<SeedReport[]> {
  const seeds = await loadSeedDirectory(dir);
  const reports: SeedReport[] = [];
  for (const { path, file } of seeds.kindFiles) {
    reports.push({ file: path, summary: (await seedKindFile(dataSource, file, options)).summary });
  }
  for (const { path, file } of seeds.typeFiles) {
    // A file of several flavors (files.yaml) reports each: `files.yaml#sftp_files`.
    const shared = seeds.typeFiles.filter((t) => t.path === path).length > 1;
    reports.push({
      file: shared ? `${path}#${file.flavor.code}` : path,
      summary: (await seedDataTypeFile(dataSource, file, options)).summary,
    });
  }
  for (const { path, file } of seeds.castFiles) {
    reports.push({ file: path, summary: (await seedCastFile(dataSource, file, options)).summary });
  }
  if (seeds.matrixTables.length > 0) {
    const matrix = generateCastMatrix(
      seeds.matrixTables.map((t) => t.table),
      seeds.castFiles.map((c) => c.file),
    );
    const plan = await seedCastMatrix(dataSource, matrix, options);
    reports.push({ file: join(dir ?? DEFAULT_SEEDS_DIR, 'cast-matrix'), summary: plan.summary });
  }
  return reports;
}
