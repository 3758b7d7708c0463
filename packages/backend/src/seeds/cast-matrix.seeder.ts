// Seeds the generated cast matrix (ADR 0043) in a few set-based statements: rules into cast_rules,
// "no mapping" entries into cast_gaps. Run after the data types and the hand-written cast files.
import type { DataSource, EntityManager } from 'typeorm';
import { jsonEqual } from '../modules/type-system/json-equal.js';
import type { CastMatrix, MatrixRule } from '../modules/type-system/cast-matrix/matrix.js';

export interface CastMatrixSeedPlan {
  /** Rules to insert, to update (safety, mapping, fidelity, loss), unchanged. */
  inserted: number;
  updated: number;
  unchanged: number;
  /** Pairs where another rule (a user's, or an older release's) into the flavor exists: left alone. */
  kept: number;
  gaps: { inserted: number; updated: number; unchanged: number; deleted: number };
  /** e.g. `cast matrix: +510 ~0 =3 kept 0; no mapping: +21 ~0 =0 -0`. */
  summary: string;
}

interface ExistingRule {
  id: string;
  source_data_type_id: string;
  target_data_type_id: string;
  target_flavor: string;
  safety: string;
  param_mapping: unknown;
  fidelity: string | null;
  loss: string[];
}

interface ExistingGap {
  id: string;
  source_data_type_id: string;
  target_flavor_id: string;
  reason: string;
}

/** Active data type ids of the given flavors, by `flavor.code`. */
export async function typeIds(m: EntityManager, flavors: string[]): Promise<Map<string, string>> {
  const rows: { id: string; flavor: string; code: string }[] = await m.query(
    `SELECT t.id, f.code AS flavor, t.code FROM data_types t JOIN system_flavors f ON f.id = t.system_flavor_id
     WHERE f.code = ANY($1) AND t.deleted_at IS NULL AND f.deleted_at IS NULL`,
    [flavors],
  );
  return new Map(rows.map((r) => [`${r.flavor}.${r.code}`, r.id]));
}

/** The stored values a matrix rule owns: all four for a generated rule, fidelity and loss for an override. */
function changedFields(row: ExistingRule, rule: MatrixRule): boolean {
  const classification = row.fidelity !== rule.fidelity || !jsonEqual(row.loss, rule.loss);
  if (rule.origin === 'override') return classification;
  return classification || row.safety !== rule.safety || !jsonEqual(row.param_mapping, rule.param_mapping);
}

/**
 * Seeds the matrix idempotently. A pair (source type, target flavor) that already has a rule into
 * another type of that flavor keeps it (resolve needs exactly one); gaps are derived data: those the
 * matrix no longer has, or whose pair now has a rule, are deleted.
 */
export async function seedCastMatrix(
  dataSource: DataSource,
  matrix: CastMatrix,
  options: { dryRun?: boolean; actorId?: string | null } = {},
): Promise<CastMatrixSeedPlan> {
  const actor = options.actorId ?? null;
  return dataSource.transaction(async (m) => {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('aide-seed', 0))`);
    const flavorCodes = [...new Set(matrix.rules.flatMap((r) => [r.source.flavor, r.target.flavor]))];
    const ids = await typeIds(m, flavorCodes);
    const flavorRows: { id: string; code: string }[] = await m.query(
      'SELECT id, code FROM system_flavors WHERE code = ANY($1) AND deleted_at IS NULL',
      [flavorCodes],
    );
    const flavorIds = new Map(flavorRows.map((f) => [f.code, f.id]));
    const idOf = (ref: { flavor: string; code: string }) => {
      const id = ids.get(`${ref.flavor}.${ref.code}`);
      if (id === undefined)
        throw new Error(`seed: cast matrix names ${ref.flavor}.${ref.code}, which is not seeded`);
      return id;
    };
    const sourceIds = [...new Set([...ids.values()])];
    const existing: ExistingRule[] = await m.query(
      `SELECT r.id, r.source_data_type_id, r.target_data_type_id, tf.code AS target_flavor, r.safety,
              r.param_mapping, r.fidelity, r.loss
       FROM cast_rules r JOIN data_types t ON t.id = r.target_data_type_id
       JOIN system_flavors tf ON tf.id = t.system_flavor_id
       WHERE r.source_data_type_id = ANY($1::uuid[]) AND t.deleted_at IS NULL`,
      [sourceIds],
    );
    const byPair = new Map<string, ExistingRule[]>();
    for (const row of existing) {
      const key = `${row.source_data_type_id}>${row.target_flavor}`;
      byPair.set(key, [...(byPair.get(key) ?? []), row]);
    }
    const inserts: Array<{ rule: MatrixRule; source: string; target: string }> = [];
    const updates: Array<{ rule: MatrixRule; id: string }> = [];
    let unchanged = 0;
    let kept = 0;
    for (const rule of matrix.rules) {
      const [source, target] = [idOf(rule.source), idOf(rule.target)];
      const rows = byPair.get(`${source}>${rule.target.flavor}`) ?? [];
      const same = rows.find((r) => r.target_data_type_id === target);
      if (same !== undefined) {
        if (changedFields(same, rule)) updates.push({ rule, id: same.id });
        else unchanged++;
      } else if (rows.length > 0) kept++;
      else inserts.push({ rule, source, target });
    }

    const ruled = new Set([...byPair.keys(), ...inserts.map((i) => `${i.source}>${i.rule.target.flavor}`)]);
    const desiredGaps = new Map<string, { source: string; flavor: string; reason: string }>();
    for (const gap of matrix.gaps) {
      const source = idOf(gap.source);
      const flavor = flavorIds.get(gap.target_flavor);
      if (flavor === undefined || ruled.has(`${source}>${gap.target_flavor}`)) continue;
      desiredGaps.set(`${source}>${flavor}`, { source, flavor, reason: gap.reason });
    }
    const storedGaps: ExistingGap[] = await m.query(
      'SELECT id, source_data_type_id, target_flavor_id, reason FROM cast_gaps WHERE source_data_type_id = ANY($1::uuid[])',
      [sourceIds],
    );
    const gapInserts = new Map(desiredGaps);
    const gapUpdates: Array<{ id: string; reason: string }> = [];
    const gapDeletes: string[] = [];
    for (const row of storedGaps) {
      const key = `${row.source_data_type_id}>${row.target_flavor_id}`;
      const want = desiredGaps.get(key);
      gapInserts.delete(key);
      if (want === undefined) gapDeletes.push(row.id);
      else if (want.reason !== row.reason) gapUpdates.push({ id: row.id, reason: want.reason });
    }
    const gapsUnchanged = storedGaps.length - gapUpdates.length - gapDeletes.length;

    if (!options.dryRun) {
      await writeRules(m, inserts, updates, actor);
      await writeGaps(m, [...gapInserts.values()], gapUpdates, gapDeletes);
    }
    const gaps = {
      inserted: gapInserts.size,
      updated: gapUpdates.length,
      unchanged: gapsUnchanged,
      deleted: gapDeletes.length,
    };
    return {
      inserted: inserts.length,
      updated: updates.length,
      unchanged,
      kept,
      gaps,
      summary:
        `cast matrix: +${inserts.length} ~${updates.length} =${unchanged} kept ${kept}; ` +
        `no mapping: +${gaps.inserted} ~${gaps.updated} =${gaps.unchanged} -${gaps.deleted}`,
    };
  });
}

async function writeRules(
  m: EntityManager,
  inserts: Array<{ rule: MatrixRule; source: string; target: string }>,
  updates: Array<{ rule: MatrixRule; id: string }>,
  actor: string | null,
): Promise<void> {
  if (inserts.length > 0) {
    // One statement: the rows travel as one JSON array.
    await m.query(
      `INSERT INTO cast_rules (source_data_type_id, target_data_type_id, safety, param_mapping, fidelity, loss,
                               created_by, updated_by)
       SELECT x.source, x.target, x.safety, x.param_mapping, x.fidelity, x.loss, $2, $2
       FROM jsonb_to_recordset($1::jsonb) AS x(source uuid, target uuid, safety text, param_mapping jsonb,
                                                fidelity text, loss text[])`,
      [
        JSON.stringify(
          inserts.map(({ rule, source, target }) => ({
            source,
            target,
            safety: rule.safety,
            param_mapping: rule.param_mapping,
            fidelity: rule.fidelity,
            loss: rule.loss,
          })),
        ),
        actor,
      ],
    );
  }
  if (updates.length > 0) {
    await m.query(
      `UPDATE cast_rules r SET safety = CASE WHEN x.override THEN r.safety ELSE x.safety END,
              param_mapping = CASE WHEN x.override THEN r.param_mapping ELSE x.param_mapping END,
              fidelity = x.fidelity, loss = x.loss, updated_by = $2, updated_at = now(),
              row_version = r.row_version + 1
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, override boolean, safety text, param_mapping jsonb,
                                                fidelity text, loss text[])
       WHERE r.id = x.id`,
      [
        JSON.stringify(
          updates.map(({ rule, id }) => ({
            id,
            override: rule.origin === 'override',
            safety: rule.safety,
            param_mapping: rule.param_mapping,
            fidelity: rule.fidelity,
            loss: rule.loss,
          })),
        ),
        actor,
      ],
    );
  }
}

async function writeGaps(
  m: EntityManager,
  inserts: Array<{ source: string; flavor: string; reason: string }>,
  updates: Array<{ id: string; reason: string }>,
  deletes: string[],
): Promise<void> {
  if (deletes.length > 0) await m.query('DELETE FROM cast_gaps WHERE id = ANY($1::uuid[])', [deletes]);
  if (inserts.length > 0) {
    await m.query(
      `INSERT INTO cast_gaps (source_data_type_id, target_flavor_id, reason)
       SELECT x.source, x.flavor, x.reason FROM jsonb_to_recordset($1::jsonb) AS x(source uuid, flavor uuid, reason text)`,
      [JSON.stringify(inserts)],
    );
  }
  if (updates.length > 0) {
    await m.query(
      `UPDATE cast_gaps g SET reason = x.reason, updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, reason text) WHERE g.id = x.id`,
      [JSON.stringify(updates)],
    );
  }
}
