import {
  contract,
  type CompatSeverity,
  type DatasetLinkCompatReport,
  type DatasetLinkCompatSummary,
  type CreateDatasetLink,
  type CreateLinkFieldLink,
  type DatasetLink,
  type FieldLink,
  type RenderSqlResult,
  type UpdateDatasetLink,
} from '@aide/schemas';
import { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { CrudResource } from './crud.js';

const routes = contract.datasetLinks;

/** Filters of `compatSummaries`: status (one or several), drift, a dataset or a system on either side. */
export interface CompatParams {
  status?: CompatSeverity | undefined;
  status__in?: readonly CompatSeverity[] | undefined;
  has_drift?: boolean | undefined;
  dataset_id?: string | undefined;
  system_id?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/**
 * `/api/v1/dataset-links`: lineage hops source → target, pinned to a schema version on each side,
 * optionally driven by an engine; and the field links inside a hop. Soft delete: `restore` is added by
 * the client.
 */
export class DatasetLinksResource extends CrudResource<DatasetLink, CreateDatasetLink, UpdateDatasetLink> {
  /**
   * `POST /dataset-links/{id}/render-sql` — the hop's `INSERT … SELECT` for its compute engine (Spark or
   * Impala): one CAST per field link to the pinned target column's type, in the engine's dialect; a Kafka
   * source is read through the upstream CDC engine's envelope. `warnings` name the columns left out or
   * uncast. `ConflictError` (`ENGINE_NOT_ATTACHED`, `ENGINE_NOT_RENDERABLE`) without a compute engine.
   */
  renderSql(linkId: string, options?: RequestOptions): Promise<RenderSqlResult> {
    return this.api.invoke(routes.renderSql, { params: { id: linkId }, options });
  }

  /** `GET /dataset-links/{id}/field-links` — the link's column lineage, oldest first. */
  fieldLinks(linkId: string, options?: RequestOptions): Promise<FieldLink[]> {
    return this.api.invoke(routes.fieldLinks, { params: { id: linkId }, options });
  }

  /**
   * `POST /dataset-links/{id}/field-links` — one field link: the source field of the link's source
   * dataset feeds a `mapped` target field; both bound in the pinned versions. A target may have several
   * sources, each with its `transformations` (ADR 0052). `ConflictError` (`FIELD_LINK_ALREADY_EXISTS`,
   * `FIELD_ORIGIN_CONFLICT`), `ValidationError` (`FIELD_BINDING_MISSING`).
   */
  addFieldLink(linkId: string, body: CreateLinkFieldLink, options?: RequestOptions): Promise<FieldLink> {
    return this.api.invoke(routes.createFieldLink, { params: { id: linkId }, body, options });
  }

  /**
   * `GET /dataset-links/{id}/compat` — the ETL pre-flight of one link: pin drift per side, each field
   * link's issues and severity (types compared structurally, cast rules applied), summary and status.
   * Abort the run on `status === 'error'`.
   */
  compat(linkId: string, options?: RequestOptions): Promise<DatasetLinkCompatReport> {
    return this.api.invoke(routes.compat, { params: { id: linkId }, options });
  }

  /**
   * `GET /dataset-links/compat` — the pre-flight summary of every active link, awaitable (one page) or
   * `for await` over all of them: `for await (const s of client.datasetLinks.compatSummaries({ status: 'error' }))`.
   */
  compatSummaries(
    params: CompatParams = {},
    options?: RequestOptions,
  ): PagePromise<DatasetLinkCompatSummary> {
    const { page, ...query } = params;
    return new PagePromise(
      (n) => this.api.invoke(routes.compatSummaries, { query: { ...query, page: n }, options }),
      page ?? 1,
    );
  }

  /**
   * `POST /dataset-links/{id}/field-links/bulk` — many field links, all or nothing (at most 500); two
   * items with the same source and target are refused before anything is written, `details.indexes`
   * naming them (several sources of one target are not duplicates).
   */
  addFieldLinks(
    linkId: string,
    items: readonly CreateLinkFieldLink[],
    options?: RequestOptions,
  ): Promise<FieldLink[]> {
    return this.api.invoke(routes.bulkFieldLinks, { params: { id: linkId }, body: items, options });
  }
}
