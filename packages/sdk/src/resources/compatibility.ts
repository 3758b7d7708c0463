import {
  type BulkCompatibilityCheck,
  type BulkCompatibilityCheckResult,
  type CompatibilityCheck,
  type CompatibilityLevel,
  contract,
  type DatasetCompatibility,
  type PublishSchemaVersion,
  type RegistryCompatibility,
  type SystemCompatibility,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from '../internal/api.js';
import { type BulkOptions, sendInChunks } from '../internal/bulk.js';

const routes = contract.compatibility;

/**
 * Compatibility levels (ADR 0048): Schema Registry's seven levels, per dataset, with a default per
 * system and one for the registry; and the check of a would-be version against them. A publish the
 * dataset's level refuses fails with `ConflictError` (`DATASET_SCHEMA_INCOMPATIBLE`), its
 * `details.violations` listing each violated rule; a superuser may publish it anyway with
 * `force_reason`.
 *
 * ```ts
 * await client.compatibility.setDatasetCompatibility(id, 'BACKWARD');
 * const check = await client.compatibility.checkSchemaVersion(id, { columns });
 * if (!check.accepted) for (const v of check.violations) console.log(v.rule, v.name, v.direction);
 * ```
 */
export class CompatibilityResource {
  readonly #api: ApiClient;

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /** `GET /compatibility` — the registry's default level. */
  getRegistryCompatibility(options?: RequestOptions): Promise<RegistryCompatibility> {
    return this.#api.invoke(routes.getRegistry, { options });
  }

  /** `PUT /compatibility` — sets the registry's default level (superusers). */
  setRegistryCompatibility(
    level: CompatibilityLevel,
    options?: RequestOptions,
  ): Promise<RegistryCompatibility> {
    return this.#api.invoke(routes.setRegistry, { body: { level }, options });
  }

  /** `GET /systems/{id}/compatibility` — a system's default level for its datasets, and the one applied. */
  getSystemCompatibility(systemId: string, options?: RequestOptions): Promise<SystemCompatibility> {
    return this.#api.invoke(routes.getSystem, { params: { id: systemId }, options });
  }

  /** `PUT /systems/{id}/compatibility` — sets (or clears, with null) a system's default (superusers). */
  setSystemCompatibility(
    systemId: string,
    level: CompatibilityLevel | null,
    options?: RequestOptions,
  ): Promise<SystemCompatibility> {
    return this.#api.invoke(routes.setSystem, { params: { id: systemId }, body: { level }, options });
  }

  /** `GET /datasets/{id}/compatibility` — a dataset's own level, its system's, the registry's, and the one applied. */
  getDatasetCompatibility(datasetId: string, options?: RequestOptions): Promise<DatasetCompatibility> {
    return this.#api.invoke(routes.getDataset, { params: { id: datasetId }, options });
  }

  /** `PUT /datasets/{id}/compatibility` — sets (or clears, with null) a dataset's own level (superusers). */
  setDatasetCompatibility(
    datasetId: string,
    level: CompatibilityLevel | null,
    options?: RequestOptions,
  ): Promise<DatasetCompatibility> {
    return this.#api.invoke(routes.setDataset, { params: { id: datasetId }, body: { level }, options });
  }

  /**
   * `POST /datasets/{id}/schema-versions/check` — would this publish body be accepted? Every violation
   * against every version compared, the change from the current version and, when refused, the
   * downstream impact. Nothing is written.
   */
  checkSchemaVersion(
    datasetId: string,
    body: PublishSchemaVersion,
    options?: RequestOptions,
  ): Promise<CompatibilityCheck> {
    return this.#api.invoke(routes.check, { params: { id: datasetId }, body, options });
  }

  /** `POST /schema-versions/check` — `checkSchemaVersion` for many datasets, each on its own (sent in chunks). */
  checkSchemaVersions(
    items: BulkCompatibilityCheck['items'],
    options?: BulkOptions<BulkCompatibilityCheckResult>,
  ): Promise<BulkCompatibilityCheckResult> {
    return sendInChunks(this.#api, routes.bulkCheck, items, { accepted: 0, refused: 0, failed: 0 }, options);
  }
}
