import {
  contract,
  type CreateDataflow,
  type Dataflow,
  type PutWatermark,
  type UpdateDataflow,
  type Watermark,
  type WatermarkHistoryEntry,
  type WatermarkWritten,
} from '@aide/schemas';
import { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { CrudResource } from './crud.js';

/**
 * `/api/v1/dataflows`: DataCoolie dataflows, plus each dataflow's watermark — the raw text as written,
 * its previous value, provenance and revision — and the history of its writes. `restore` is added by
 * the client.
 */
export class DataflowsResource extends CrudResource<Dataflow, CreateDataflow, UpdateDataflow> {
  /** `GET /dataflows/{id}/watermark` — revision 0 and nulls when never written. */
  watermark(id: string, options?: RequestOptions): Promise<Watermark> {
    return this.api.invoke(contract.dataflows.watermark, { params: { id }, options });
  }

  /**
   * `PUT /dataflows/{id}/watermark` — stores `current_value` verbatim (atomic; a write equal to the
   * current one, provenance included, is a retry and changes nothing) and answers its revision.
   */
  putWatermark(id: string, body: PutWatermark, options?: RequestOptions): Promise<WatermarkWritten> {
    return this.api.invoke(contract.dataflows.putWatermark, { params: { id }, body, options });
  }

  /** `GET /dataflows/{id}/watermark/history` — every write, newest first (await a page or `for await`). */
  watermarkHistory(
    id: string,
    params: { page?: number; size?: number } = {},
    options?: RequestOptions,
  ): PagePromise<WatermarkHistoryEntry> {
    return new PagePromise(
      (page) =>
        this.api.invoke(contract.dataflows.watermarkHistory, {
          params: { id },
          query: { page, ...(params.size !== undefined ? { size: params.size } : {}) },
          options,
        }),
      params.page ?? 1,
    );
  }
}
