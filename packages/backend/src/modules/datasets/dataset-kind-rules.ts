import { DATASET_KIND_SYSTEM_KINDS, type DatasetKind, datasetKindFitsSystemKind } from '@aide/schemas';
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
