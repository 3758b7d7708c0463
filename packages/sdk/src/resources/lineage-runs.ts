import {
  contract,
  type DatasetRun,
  type LineageJob,
  type LineageJobGraph,
  type LineageJobVersion,
  type LineageRun,
  type LineageRunEvent,
  type LineageRunState,
} from '@aide/schemas';
import { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from '../internal/api.js';
import type { QueryValue } from '../internal/query.js';
import type { ListParams } from './crud.js';
import type { LineageParams } from './lineage.js';

const routes = contract.lineage;

/** Filters of `lineage.jobs.list`: `namespace` (or `namespace__in`), `name` or `name__like` (contains). */
export interface LineageJobParams extends ListParams {
  namespace?: string | undefined;
  namespace__in?: readonly string[] | undefined;
  name?: string | undefined;
  name__like?: string | undefined;
}

/** Filters of `lineage.jobs.runs`: the run state (one or several). */
export interface LineageRunParams extends ListParams {
  state?: LineageRunState | undefined;
  state__in?: readonly LineageRunState[] | undefined;
}

/** Filters of `lineage.runs.ofDataset`: the dataset's role in the run. */
export interface DatasetRunParams extends ListParams {
  role?: 'input' | 'output' | undefined;
}

/** A page route as `PagePromise` reads it: awaitable (one page) or `for await` over every item. */
function paged<T>(
  read: (query: Record<string, QueryValue>) => Promise<{
    items: T[];
    total: number;
    page: number;
    size: number;
    pages: number;
  }>,
  params: ListParams,
): PagePromise<T> {
  const { page, ...query } = params;
  return new PagePromise((n) => read({ ...query, page: n }), page ?? 1);
}

/**
 * `/api/v1/lineage/jobs`: the OpenLineage jobs the intake recorded (ADR 0053) — type, source code
 * location, SQL, current inputs/outputs, latest run — with their versions and runs. Pages are awaitable
 * (one page) or `for await` over every item.
 *
 * ```ts
 * for await (const job of client.lineage.jobs.list({ namespace: 'spark' })) console.log(job.name);
 * const failed = await client.lineage.jobs.runs(job.id, { state: 'FAILED' });
 * ```
 */
export class LineageJobsResource {
  readonly #api: ApiClient;

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /** `GET /lineage/jobs` — the jobs, filtered by namespace and name, sorted (default `namespace,name`). */
  list(params: LineageJobParams = {}, options?: RequestOptions): PagePromise<LineageJob> {
    return paged((query) => this.#api.invoke(routes.jobs, { query, options }), params);
  }

  /** `GET /lineage/jobs/{id}` — one job. */
  get(id: string, options?: RequestOptions): Promise<LineageJob> {
    return this.#api.invoke(routes.job, { params: { id }, options });
  }

  /** `GET /lineage/jobs/{id}/versions` — its versions, newest first, each with the run that introduced it. */
  versions(id: string, params: ListParams = {}, options?: RequestOptions): PagePromise<LineageJobVersion> {
    return paged((query) => this.#api.invoke(routes.jobVersions, { params: { id }, query, options }), params);
  }

  /**
   * `GET /lineage/graph` — one page of the job graph around `job:<id>` or `dataset:<id>`: dataset → job →
   * dataset from the jobs' current inputs and outputs, each edge one hop (direction, depth 1..20, page).
   */
  graph(
    node: `job:${string}` | `dataset:${string}`,
    params: LineageParams = {},
    options?: RequestOptions,
  ): Promise<LineageJobGraph> {
    return this.#api.invoke(routes.graph, { query: { ...params, node }, options });
  }

  /** `GET /lineage/jobs/{id}/runs` — its runs, newest first (filter: state). */
  runs(id: string, params: LineageRunParams = {}, options?: RequestOptions): PagePromise<LineageRun> {
    return paged((query) => this.#api.invoke(routes.jobRuns, { params: { id }, query, options }), params);
  }
}

/**
 * `/api/v1/lineage/runs`: OpenLineage runs (ADR 0053) by their AIDE id or their runId — state, times,
 * parent, error, facets, inputs and outputs — and the events each was recorded from, as sent.
 */
export class LineageRunsResource {
  readonly #api: ApiClient;

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /** `GET /lineage/runs/{id}` — one run, by its id or its OpenLineage runId. */
  get(id: string, options?: RequestOptions): Promise<LineageRun> {
    return this.#api.invoke(routes.run, { params: { id }, options });
  }

  /** `GET /lineage/runs/{id}/events` — its events as they were sent, in eventTime order. */
  events(id: string, options?: RequestOptions): Promise<LineageRunEvent[]> {
    return this.#api.invoke(routes.runEvents, { params: { id }, options });
  }

  /** `GET /datasets/{id}/runs` — the runs that read (input) or wrote (output) a dataset, newest first. */
  ofDataset(
    datasetId: string,
    params: DatasetRunParams = {},
    options?: RequestOptions,
  ): PagePromise<DatasetRun> {
    return paged(
      (query) => this.#api.invoke(routes.datasetRuns, { params: { id: datasetId }, query, options }),
      params,
    );
  }
}
