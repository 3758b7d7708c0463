import { AppError } from '../../common/errors/app-error.js';

/**
 * A dataset's own flavor (ADR 0045) must be an active flavor of its system's kind: a Kafka dataset may
 * be typed in Avro, Protobuf or JSON Schema, never in PostgreSQL's types.
 *
 * @param flavorKindCode the code of the flavor's kind, undefined when the flavor is not active
 * @throws AppError 404 SYSTEM_FLAVOR_NOT_FOUND, 422 DATASET_FLAVOR_KIND_MISMATCH
 */
export function assertDatasetFlavorFits(
  flavorId: string,
  flavorKindCode: string | undefined,
  systemKindCode: string,
): void {
  if (flavorKindCode === undefined)
    throw new AppError('SYSTEM_FLAVOR_NOT_FOUND', undefined, { flavor_id: flavorId });
  if (flavorKindCode === systemKindCode) return;
  throw new AppError(
    'DATASET_FLAVOR_KIND_MISMATCH',
    `The flavor is of kind '${flavorKindCode}'; the dataset's system is of kind '${systemKindCode}'.`,
    { flavor_id: flavorId, flavor_kind: flavorKindCode, system_kind: systemKindCode },
  );
}

/** The flavor a dataset's columns are typed in: its own, else its system's. */
export function effectiveFlavorId(own: string | null | undefined, systemFlavorId: string): string {
  return (own ?? systemFlavorId).toLowerCase();
}
