import {
  contract,
  type DatasetLineageGraph,
  type FieldLineageGraph,
  type LineageDirection,
  type OpenLineageIntakeResult,
  type OpenLineageEvent,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from '../internal/api.js';
import { LineageJobsResource, LineageRunsResource } from './lineage-runs.js';

/** Parameters of a graph read: direction (default both), depth 1..20 (default 3), page and size (≤ 1000). */
export interface LineageParams {
  direction?: LineageDirection | undefined;
  depth?: number | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

type GraphPage = DatasetLineageGraph | FieldLineageGraph;

/** A whole graph, every page of it joined: nodes by distance from the root, each edge once. */
export type Whole<G extends GraphPage> = Omit<G, 'page' | 'size' | 'pages'>;

/**
 * `/api/v1/lineage`: the lineage graph around a dataset or a field, upstream, downstream or both,
 * depth-limited and cycle-safe (the server walks it in one query per page).
 *
 * ```ts
 * const graph = await client.lineage.datasets(id, { direction: 'downstream', depth: 5 });
 * for (const node of graph.nodes) console.log(node.object_name, node.downstream_depth);
 * for await (const page of client.lineage.datasetPages(id, { size: 1000 })) draw(page.nodes, page.edges);
 * ```
 */
export class LineageResource {
  readonly #api: ApiClient;
  /** OpenLineage jobs with their versions and runs (ADR 0053): `client.lineage.jobs.list()`. */
  readonly jobs: LineageJobsResource;
  /** OpenLineage runs and their events, a dataset's runs: `client.lineage.runs.get(runId)`. */
  readonly runs: LineageRunsResource;

  constructor(api: ApiClient) {
    this.#api = api;
    this.jobs = new LineageJobsResource(api);
    this.runs = new LineageRunsResource(api);
  }

  /** The contract routes this client calls. */

  /**
   * `POST /lineage/openlineage` — sends an OpenLineage `RunEvent`, `JobEvent` or `DatasetEvent` (as an
   * OpenLineage integration emits it; integrations post to `POST /lineage`, the same intake): its inputs
   * and outputs are matched to registered datasets by namespace and name, dataset links created or
   * confirmed, `columnLineage` facets turned into field links. The answer lists what was matched, linked
   * and skipped (with the reason), the datasets no registered one answers to, and what the event's type
   * did (`outcome`). The same event sent again (a RunEvent's run id and event type; a JobEvent's or
   * DatasetEvent's content) is answered with the first result (`duplicate: true`).
   */
  sendOpenLineageEvent(event: OpenLineageEvent, options?: RequestOptions): Promise<OpenLineageIntakeResult> {
    return this.#api.invoke(contract.lineage.openLineage, { body: event, options });
  }

  async *#pages<G extends GraphPage>(read: (page: number) => Promise<G>, first: number): AsyncGenerator<G> {
    for (let page = first, pages = first; page <= pages; page++) {
      const body = await read(page);
      pages = body.pages;
      yield body;
    }
  }

  async #whole<G extends GraphPage>(pages: AsyncGenerator<G>): Promise<Whole<G>> {
    let whole: Whole<G> | undefined;
    for await (const page of pages) {
      const { page: _p, size: _s, pages: _n, ...rest } = page;
      if (!whole) whole = rest;
      else {
        (whole.nodes as unknown[]).push(...page.nodes);
        (whole.edges as unknown[]).push(...page.edges);
      }
    }
    return whole as Whole<G>;
  }

  /** `GET /lineage/datasets/{id}` — one page of the dataset graph. */
  datasetGraph(
    id: string,
    params: LineageParams = {},
    options?: RequestOptions,
  ): Promise<DatasetLineageGraph> {
    return this.#api.invoke(contract.lineage.datasets, { params: { id }, query: { ...params }, options });
  }

  /** `GET /lineage/fields/{id}` — one page of the column graph (field links of active dataset links). */
  fieldGraph(id: string, params: LineageParams = {}, options?: RequestOptions): Promise<FieldLineageGraph> {
    return this.#api.invoke(contract.lineage.fields, { params: { id }, query: { ...params }, options });
  }

  /** Every page of the dataset graph from `params.page` (default 1), for `for await`. */
  datasetPages(
    id: string,
    params: LineageParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<DatasetLineageGraph> {
    return this.#pages((page) => this.datasetGraph(id, { ...params, page }, options), params.page ?? 1);
  }

  /** Every page of the field graph, for `for await`. */
  fieldPages(
    id: string,
    params: LineageParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<FieldLineageGraph> {
    return this.#pages((page) => this.fieldGraph(id, { ...params, page }, options), params.page ?? 1);
  }

  /** The whole dataset graph (all pages joined; pages of 1000 unless `size` says otherwise). */
  datasets(
    id: string,
    params: Omit<LineageParams, 'page'> = {},
    options?: RequestOptions,
  ): Promise<Whole<DatasetLineageGraph>> {
    return this.#whole(this.datasetPages(id, { size: 1000, ...params }, options));
  }

  /** The whole field graph (all pages joined). */
  fields(
    id: string,
    params: Omit<LineageParams, 'page'> = {},
    options?: RequestOptions,
  ): Promise<Whole<FieldLineageGraph>> {
    return this.#whole(this.fieldPages(id, { size: 1000, ...params }, options));
  }
}
