import { DATASET_KIND_SYSTEM_KINDS, type DatasetKind, datasetKindFitsSystemKind } from '@aide/schemas';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';

/**
 * A dataset's kind must fit its system's kind (DATASET_KIND_SYSTEM_KINDS, docs/dataset-kinds.md):
 * checked when a dataset is created and when a system, flavor or kind changes under datasets.
 *
 * @throws AppError 422 DATASET_SYSTEM_KIND_MISMATCH for the first kind that does not fit.
 */
export function assertDatasetKindsFit(kinds: readonly DatasetKind[], systemKindCode: string): void {
  for (const kind of kinds) {
    if (datasetKindFitsSystemKind(kind, systemKindCode)) continue;
    const allowed = DATASET_KIND_SYSTEM_KINDS[kind];
    throw new AppError(
      'DATASET_SYSTEM_KIND_MISMATCH',
      `A ${kind} dataset needs a system of kind ${allowed.map((k) => `'${k}'`).join(' or ')}; ` +
        `the system's kind would be '${systemKindCode}'.`,
      { dataset_kind: kind, system_kind: systemKindCode, allowed_system_kinds: allowed },
    );
  }
}

/**
 * The kinds of the datasets on a system, on the systems of a flavor or typed in it (a dataset's own
 * flavor, ADR 0045: it must stay of its system's kind), or under a system kind: what a change of kind
 * must still fit. Deleted datasets count too: a restore brings them back on the same system. Asked by
 * the parents (systems, flavors, kinds) of the rows it reads (ADR 0026).
 */
export async function datasetKindsWithin(
  scope: 'system' | 'flavor' | 'kind',
  id: string,
  manager: EntityManager,
): Promise<DatasetKind[]> {
  const where = { system: 's.id = $1', flavor: '(f.id = $1 OR d.flavor_id = $1)', kind: 'f.kind_id = $1' }[
    scope
  ];
  const rows: { kind: DatasetKind }[] = await manager.query(
    `SELECT DISTINCT d.kind FROM datasets d JOIN systems s ON s.id = d.system_id
     JOIN system_flavors f ON f.id = s.flavor_id WHERE ${where} ORDER BY d.kind`,
    [id],
  );
  return rows.map((r) => r.kind);
}
