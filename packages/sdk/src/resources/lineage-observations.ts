import {
  contract,
  type ObservedSchema,
  type OpenLineageReplay,
  type OpenLineageReplayResult,
  type RegisterUnknownDataset,
  type RegisterUnknownDatasetResult,
  type UnknownDataset,
  type UnknownDatasetPage,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from '../internal/api.js';

const routes = contract.lineageObservations;

/** Filters of `unknownDatasets`: namespace (normalised), name (contains), registered or not; page, size ≤ 100. */
export interface UnknownDatasetParams {
  namespace?: string | undefined;
  name?: string | undefined;
  registered?: boolean | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/**
 * What the OpenLineage intake observed beyond the registry (ADR 0054): the datasets it did not know
 * (listed, registered in one call, their events replayed) and the schemas matched datasets were seen with.
 *
 * ```ts
 * const { items } = await client.lineageObservations.unknownDatasets({ registered: false });
 * const done = await client.lineageObservations.registerUnknownDataset(items[0].id, { publish_schema: true });
 * console.log(done.replay.dataset_links, 'links applied');
 * ```
 */
export class LineageObservationsResource {
  readonly #api: ApiClient;

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /** `GET /lineage/unknown-datasets` — one page, latest seen first (filters: namespace, name, registered). */
  unknownDatasets(params: UnknownDatasetParams = {}, options?: RequestOptions): Promise<UnknownDatasetPage> {
    const { registered, ...rest } = params;
    const query = { ...rest, ...(registered === undefined ? {} : { registered: String(registered) }) };
    return this.#api.invoke(routes.unknownDatasets, { query, options });
  }

  /** `GET /lineage/unknown-datasets/{id}` — fields seen, first/last seen, jobs. */
  unknownDataset(id: string, options?: RequestOptions): Promise<UnknownDataset> {
    return this.#api.invoke(routes.unknownDataset, { params: { id }, options });
  }

  /**
   * `POST /lineage/unknown-datasets/{id}/register` — creates the dataset (on the system its namespace
   * resolves to, or `system_id`), optionally version 1 of the fields seen, then replays its events.
   */
  registerUnknownDataset(
    id: string,
    body: RegisterUnknownDataset = {},
    options?: RequestOptions,
  ): Promise<RegisterUnknownDatasetResult> {
    return this.#api.invoke(routes.registerUnknownDataset, { params: { id }, body, options });
  }

  /** `POST /lineage/openlineage/replay` — applies stored events again: a run's, or an unknown dataset's. */
  replay(body: OpenLineageReplay, options?: RequestOptions): Promise<OpenLineageReplayResult> {
    return this.#api.invoke(routes.replay, { body, options });
  }

  /** `GET /datasets/{id}/observed-schemas` — each job's latest schema facet, with its drift class. */
  observedSchemas(datasetId: string, options?: RequestOptions): Promise<ObservedSchema[]> {
    return this.#api.invoke(routes.observedSchemas, { params: { id: datasetId }, options });
  }
}
