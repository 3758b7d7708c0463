import {
  contract,
  type DataCoolieConnection,
  type DataCoolieConnectionPage,
  type DataCoolieConnectionsQuery,
  type DataCoolieDataflow,
  type DataCoolieDataflowPage,
  type DataCoolieDataflowsQuery,
  type DataCoolieImportPlan,
  type DataCoolieImportRequest,
  type DataCoolieSchemaHintPage,
  type DataCoolieSchemaHintsQuery,
  type DataCoolieSnapshotPage,
  type PutSchemaHintOverrides,
  type PutWatermark,
  type SchemaHintOverrides,
  type Watermark,
  type WatermarkWritten,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from '../internal/api.js';

/** Which page of a workspace snapshot to read. */
export interface SnapshotPageParams {
  /** Items per page, 100..25,000 (server default 10,000). */
  pageSize?: number | undefined;
  /** The `next_cursor` of the previous page; omitted for the first page. */
  cursor?: string | undefined;
  /** A revision the caller holds: a first page still at it answers `undefined` (304). */
  ifNoneMatch?: string | undefined;
}

const paging = (query: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  );

/**
 * `/api/v1/workspaces/{workspace}`: a workspace's DataCoolie metadata — the snapshot its metadata
 * provider loads, and DataCoolie's own REST routes (`{data, pagination}` envelopes). `workspace` is the
 * workspace's id or code.
 */
export class DataCoolieResource {
  readonly #api: ApiClient;

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /**
   * `GET …/datacoolie/snapshot` — one page of the workspace's complete scope (connections, dataflows
   * active and inactive, schema-hint groups) at one revision; `undefined` when `ifNoneMatch` names the
   * current revision. Follow `next_cursor` for the next page of the same revision.
   */
  snapshotPage(
    workspace: string,
    params: SnapshotPageParams = {},
    options?: RequestOptions,
  ): Promise<DataCoolieSnapshotPage | undefined> {
    return this.#api.invoke(contract.datacoolie.snapshot, {
      params: { workspace_id: workspace },
      query: paging({ page_size: params.pageSize, cursor: params.cursor }),
      headers: params.ifNoneMatch === undefined ? undefined : { 'if-none-match': `"${params.ifNoneMatch}"` },
      options,
    });
  }

  /**
   * `POST …/datacoolie/import` — moves a DataCoolie document's resolved scope (connections, dataflows
   * whose ends name their connection by id, hint groups in document order) into the workspace as one
   * plan applied in one transaction (ADR 0050); `workspace` is its id or code (a new code creates it).
   * Resolves to the plan when it was applied, had nothing to do, or `dry_run` was set and found no
   * problem. A plan with problems writes nothing and rejects with a `ValidationError` (422) whose
   * `errorCode` is `DATACOOLIE_IMPORT_INVALID` and whose `details.plan` is the whole plan (a
   * `DataCoolieImportPlan`, its `problems` listing each reason) — a dry run rejects the same way, so
   * its outcome is the real run's:
   *
   * ```ts
   * try {
   *   const plan = await client.datacoolie.importDocument('analytics-prod', body);
   * } catch (error) {
   *   if (error instanceof ValidationError && error.errorCode === 'DATACOOLIE_IMPORT_INVALID') {
   *     const plan = error.details?.['plan'] as DataCoolieImportPlan;
   *   }
   * }
   * ```
   */
  importDocument(
    workspace: string,
    body: DataCoolieImportRequest,
    options?: RequestOptions,
  ): Promise<DataCoolieImportPlan> {
    return this.#api.invoke(contract.datacoolie.import, {
      params: { workspace_id: workspace },
      body,
      options,
    });
  }

  /** `GET …/connections` — one page (`page`, `page_size` ≤ 1000, `name`, `active_only`). */
  connections(
    workspace: string,
    query: DataCoolieConnectionsQuery = {},
    options?: RequestOptions,
  ): Promise<DataCoolieConnectionPage> {
    return this.#api.invoke(contract.datacoolie.connections, {
      params: { workspace_id: workspace },
      query: paging(query),
      options,
    });
  }

  /** `GET …/connections/{id}` — `NotFoundError` when absent. */
  connection(
    workspace: string,
    connectionId: string,
    options?: RequestOptions,
  ): Promise<DataCoolieConnection> {
    return this.#api.invoke(contract.datacoolie.connection, {
      params: { workspace_id: workspace, connection_id: connectionId },
      options,
    });
  }

  /** `GET …/dataflows` — one page (`stage` comma list, `active_only`), connections expanded. */
  dataflows(
    workspace: string,
    query: DataCoolieDataflowsQuery = {},
    options?: RequestOptions,
  ): Promise<DataCoolieDataflowPage> {
    return this.#api.invoke(contract.datacoolie.dataflows, {
      params: { workspace_id: workspace },
      query: paging(query),
      options,
    });
  }

  /** `GET …/dataflows/{id}` — `NotFoundError` when absent. */
  dataflow(workspace: string, dataflowId: string, options?: RequestOptions): Promise<DataCoolieDataflow> {
    return this.#api.invoke(contract.datacoolie.dataflow, {
      params: { workspace_id: workspace, dataflow_id: dataflowId },
      options,
    });
  }

  /** `GET …/schema-hints` — one page of hints flattened with their table key (filters case-insensitive). */
  schemaHints(
    workspace: string,
    query: DataCoolieSchemaHintsQuery = {},
    options?: RequestOptions,
  ): Promise<DataCoolieSchemaHintPage> {
    return this.#api.invoke(contract.datacoolie.schemaHints, {
      params: { workspace_id: workspace },
      query: paging(query),
      options,
    });
  }

  /**
   * `GET …/schema-hint-overrides/{dataset}` — what the workspace's hints of the dataset's columns carry
   * beyond their type (`format`, `default_value`, `is_active`; ADR 0030).
   */
  schemaHintOverrides(
    workspace: string,
    datasetId: string,
    options?: RequestOptions,
  ): Promise<SchemaHintOverrides> {
    return this.#api.invoke(contract.datacoolie.schemaHintOverrides, {
      params: { workspace_id: workspace, dataset_id: datasetId },
      options,
    });
  }

  /** `PUT …/schema-hint-overrides/{dataset}` — replaces the set (an unchanged set writes nothing). */
  putSchemaHintOverrides(
    workspace: string,
    datasetId: string,
    body: PutSchemaHintOverrides,
    options?: RequestOptions,
  ): Promise<SchemaHintOverrides> {
    return this.#api.invoke(contract.datacoolie.putSchemaHintOverrides, {
      params: { workspace_id: workspace, dataset_id: datasetId },
      body,
      options,
    });
  }

  /** `GET …/watermarks/{dataflow}` — the text as written; `NotFoundError` for an unknown dataflow. */
  watermark(workspace: string, dataflowId: string, options?: RequestOptions): Promise<Watermark> {
    return this.#api.invoke(contract.datacoolie.watermark, {
      params: { workspace_id: workspace, dataflow_id: dataflowId },
      options,
    });
  }

  /** `PUT …/watermarks/{dataflow}` — stored verbatim, atomic, safe to retry. */
  putWatermark(
    workspace: string,
    dataflowId: string,
    body: PutWatermark,
    options?: RequestOptions,
  ): Promise<WatermarkWritten> {
    return this.#api.invoke(contract.datacoolie.putWatermark, {
      params: { workspace_id: workspace, dataflow_id: dataflowId },
      body,
      options,
    });
  }
}
