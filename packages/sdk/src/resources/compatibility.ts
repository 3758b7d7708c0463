import {
  contract,
  type BulkCompatibilityCheck,
  type BulkCompatibilityCheckResult,
  type CompatibilityCheck,
  type CompatibilityLevel,
  type DatasetCompatibility,
  type PublishSchemaVersion,
  type RegistryCompatibility,
  type SystemCompatibility,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from '../internal/api.js';
import { type BulkOptions, sendInChunks } from '../internal/bulk.js';

const routes = contract.compatibility;

/** One item of `bulkCheck`: a dataset and the version it would be published with. */
export type CompatibilityCheckItem = BulkCompatibilityCheck['items'][number];

/**
 * Compatibility levels (ADR 0048): Schema Registry's seven levels enforced on publish, per dataset,
 * with a default per system and one for the registry; and the check that answers whether a version
 * would be accepted, writing nothing.
 *
 * ```ts
 * await client.compatibility.setDataset(datasetId, 'BACKWARD'); // superusers
 * const check = await client.compatibility.check(datasetId, { columns });
 * if (!check.accepted) for (const v of check.violations) console.log(v.rule, v.name, v.reason);
 * ```
 */
export class CompatibilityResource {
  readonly #api: ApiClient;

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /** `GET /compatibility` — the registry's default level. */
  getRegistry(options?: RequestOptions): Promise<RegistryCompatibility> {
    return this.#api.invoke(routes.getRegistry, { options });
  }

  /** `PUT /compatibility` — sets the registry's default level (superusers). */
  setRegistry(level: CompatibilityLevel, options?: RequestOptions): Promise<RegistryCompatibility> {
    return this.#api.invoke(routes.setRegistry, { body: { level }, options });
  }

  /** `GET /systems/{id}/compatibility` — a system's default level for its datasets. */
  getSystem(systemId: string, options?: RequestOptions): Promise<SystemCompatibility> {
    return this.#api.invoke(routes.getSystem, { params: { id: systemId }, options });
  }

  /** `PUT /systems/{id}/compatibility` — sets (or clears, with null) a system's default (superusers). */
  setSystem(
    systemId: string,
    level: CompatibilityLevel | null,
    options?: RequestOptions,
  ): Promise<SystemCompatibility> {
    return this.#api.invoke(routes.setSystem, { params: { id: systemId }, body: { level }, options });
  }

  /** `GET /datasets/{id}/compatibility` — a dataset's level, its system's, the registry's, and the one applied. */
  getDataset(datasetId: string, options?: RequestOptions): Promise<DatasetCompatibility> {
    return this.#api.invoke(routes.getDataset, { params: { id: datasetId }, options });
  }

  /** `PUT /datasets/{id}/compatibility` — sets (or clears, with null) a dataset's own level (superusers). */
  setDataset(
    datasetId: string,
    level: CompatibilityLevel | null,
    options?: RequestOptions,
  ): Promise<DatasetCompatibility> {
    return this.#api.invoke(routes.setDataset, { params: { id: datasetId }, body: { level }, options });
  }

  /**
   * `POST /datasets/{id}/schema-versions/check` — what the dataset's level makes of a publish of this
   * version: `accepted`, every violation, the change from the current version. Writes nothing.
   */
  check(
    datasetId: string,
    version: PublishSchemaVersion,
    options?: RequestOptions,
  ): Promise<CompatibilityCheck> {
    return this.#api.invoke(routes.check, { params: { id: datasetId }, body: version, options });
  }

  /**
   * `POST /schema-versions/check` — checks many datasets' would-be versions, each on its own: per item
   * the `check`, or the `error` that kept it from being checked. Sent in chunks of at most 500 items
   * (and the server's body limit), the results merged in input order.
   */
  bulkCheck(
    items: readonly CompatibilityCheckItem[],
    options?: BulkOptions<BulkCompatibilityCheckResult>,
  ): Promise<BulkCompatibilityCheckResult> {
    return sendInChunks(this.#api, routes.bulkCheck, items, { accepted: 0, refused: 0, failed: 0 }, options);
  }
}
