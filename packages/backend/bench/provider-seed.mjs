// The scope `pnpm bench provider` loads, written in bulk with SQL (the API would take minutes for it):
// one workspace, a database profile over a PostgreSQL system and a lakehouse profile over a storage
// system, N dataflows each copying an rdbms table of `hints` typed columns into a delta table.

/** Column types of the source tables, in turn (postgres14 codes and parameters). */
const COLUMN_TYPES = [
  ['bigint', null],
  ['numeric', { precision: 18, scale: 2 }],
  ['varchar', { length: 255 }],
  ['timestamptz', null],
  ['integer', null],
  ['text', null],
  ['boolean', null],
  ['date', null],
];

/** Writes the scope; returns the workspace id. `q(sql, params)` runs one statement. */
export async function seedProviderScope(q, { dataflows, hints }) {
  const [pgFlavor] = await q(`SELECT id FROM system_flavors WHERE code = 'postgres14'`);
  const [storageKind] = await q(
    `INSERT INTO system_kinds (code, name) VALUES ('storage', 'Object storage')
     ON CONFLICT DO NOTHING RETURNING id`,
  );
  const kindId = storageKind?.id ?? (await q(`SELECT id FROM system_kinds WHERE code = 'storage'`))[0].id;
  const [lakeFlavor] = await q(
    `INSERT INTO system_flavors (code, name, kind_id) VALUES ('bench_lake', 'Bench lake', $1) RETURNING id`,
    [kindId],
  );
  const [pgSystem] = await q(
    `INSERT INTO systems (code, name, flavor_id, extra) VALUES ('bench_erp', 'ERP', $1, '{"host": "erp.internal", "port": 5432}')
     RETURNING id`,
    [pgFlavor.id],
  );
  const [lakeSystem] = await q(
    `INSERT INTO systems (code, name, flavor_id) VALUES ('bench_lake', 'Lake', $1) RETURNING id`,
    [lakeFlavor.id],
  );
  const [workspace] = await q(
    `INSERT INTO workspaces (code, name) VALUES ('bench-provider', 'Provider bench') RETURNING id`,
  );
  const [erp] = await q(
    `INSERT INTO connection_profiles (workspace_id, system_id, name, connection_type, format, database)
     VALUES ($1, $2, 'erp_postgres', 'database', 'sql', 'erp') RETURNING id`,
    [workspace.id, pgSystem.id],
  );
  const [bronze] = await q(
    `INSERT INTO connection_profiles (workspace_id, system_id, name, connection_type, format, configure)
     VALUES ($1, $2, 'bronze_lakehouse', 'lakehouse', 'delta', '{"base_path": "s3://lake/bronze"}') RETURNING id`,
    [workspace.id, lakeSystem.id],
  );
  await q(
    `INSERT INTO datasets (system_id, object_name, kind, layer)
     SELECT $1, 'sales.t' || i, 'rdbms', 'source' FROM generate_series(1, $2) i`,
    [pgSystem.id, dataflows],
  );
  await q(
    `INSERT INTO dataset_rdbms (id, schema_name, table_name)
     SELECT id, 'sales', substr(object_name, 7) FROM datasets WHERE system_id = $1`,
    [pgSystem.id],
  );
  await q(
    `INSERT INTO datasets (system_id, object_name, kind, layer)
     SELECT $1, 's3://lake/bronze/erp/t' || i, 'storage', 'raw' FROM generate_series(1, $2) i`,
    [lakeSystem.id, dataflows],
  );
  await q(
    `INSERT INTO dataset_storage (id, path, file_format) SELECT id, object_name, 'delta' FROM datasets WHERE system_id = $1`,
    [lakeSystem.id],
  );
  await q(
    `INSERT INTO dataset_schemas (dataset_id, version_num) SELECT id, 1 FROM datasets WHERE system_id = $1`,
    [pgSystem.id],
  );
  await q(
    `INSERT INTO fields (dataset_id, name)
     SELECT d.id, 'c' || c FROM datasets d CROSS JOIN generate_series(1, $2) c WHERE d.system_id = $1`,
    [pgSystem.id, hints],
  );
  const types = await q(
    `SELECT dt.id, dt.code FROM data_types dt WHERE dt.system_flavor_id = $1 AND dt.code = ANY($2::text[])`,
    [pgFlavor.id, COLUMN_TYPES.map(([code]) => code)],
  );
  const typeIds = COLUMN_TYPES.map(([code]) => types.find((t) => t.code === code).id);
  const params = COLUMN_TYPES.map(([, p]) => (p ? JSON.stringify(p) : null));
  await q(
    `WITH f AS (
       SELECT f.id AS field_id, substr(f.name, 2)::int AS c, s.id AS schema_id
       FROM fields f JOIN datasets d ON d.id = f.dataset_id JOIN dataset_schemas s ON s.dataset_id = d.id
       WHERE d.system_id = $1),
     ti AS (
       INSERT INTO type_instances (data_type_id, type_params, note)
       SELECT ($2::uuid[])[1 + (f.c - 1) % $4], ($3::jsonb[])[1 + (f.c - 1) % $4], f.field_id::text FROM f
       RETURNING id, note)
     INSERT INTO field_bindings (field_id, dataset_schema_id, position, type_instance_id)
     SELECT f.field_id, f.schema_id, f.c - 1, ti.id FROM f JOIN ti ON ti.note = f.field_id::text`,
    [pgSystem.id, typeIds, params, COLUMN_TYPES.length],
  );
  await q(`UPDATE type_instances SET note = NULL WHERE note IS NOT NULL`);
  await q(
    `INSERT INTO dataflows (workspace_id, name, stage, group_number, execution_order, source_kind,
       source_connection_id, source_dataset_id, source_watermark_columns, destination_connection_id,
       destination_dataset_id, load_type, merge_keys)
     SELECT $1, 'flow_' || i, CASE WHEN i % 2 = 0 THEN 'source2bronze' ELSE 'bronze2silver' END, i % 8, i,
            'dataset', $2, s.id, ARRAY['c4'], $3, t.id, 'merge_upsert', ARRAY['c1']
     FROM generate_series(1, $4) i
     JOIN datasets s ON s.object_name = 'sales.t' || i
     JOIN datasets t ON t.object_name = 's3://lake/bronze/erp/t' || i`,
    [workspace.id, erp.id, bronze.id, dataflows],
  );
  await q('ANALYZE');
  return workspace.id;
}
