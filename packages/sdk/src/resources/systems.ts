import {
  contract,
  type CreateSystem,
  type System,
  type SystemDatasetCount,
  type SystemFingerprintsPage,
  type SystemSnapshotPage,
  type UpdateSystem,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import { CrudResource } from './crud.js';

/** Which part of a system's snapshot to read. */
export interface SnapshotParams {
  /** Datasets per page, 1..1000 (server default 500). */
  limit?: number | undefined;
  /** The `next_cursor` of the previous page; omitted for the first page. */
  cursor?: string | undefined;
}

/**
 * `/api/v1/systems`: concrete databases, clusters and stores, plus the snapshot of a system's
 * registry side. `restore` and `createMany` are added by the client.
 */
export class SystemsResource extends CrudResource<System, CreateSystem, UpdateSystem> {
  /**
   * `GET /systems/dataset-counts` — the number of active datasets of each system, for up to 100
   * systems in one request (a page of `list`). Unknown and deleted systems are absent from the answer.
   *
   * ```ts
   * const page = await client.systems.list({ size: 100 });
   * const counts = await client.systems.datasetCounts(page.items.map((s) => s.id));
   * ```
   */
  async datasetCounts(systemIds: readonly string[], options?: RequestOptions): Promise<SystemDatasetCount[]> {
    if (systemIds.length === 0) return [];
    const answer = await this.api.invoke(contract.systems.datasetCounts, {
      query: { id__in: systemIds.join(',') },
      options,
    });
    return answer.items;
  }

  /**
   * `GET /systems/{id}/snapshot` — one page: datasets (deleted ones aside) in id order, each with its
   * current version (columns, types, keys, comments, kind) or `null`, and `next_cursor` (null on the
   * last page). `NotFoundError` (`SYSTEM_NOT_FOUND`) for an unknown system.
   */
  snapshotPage(
    systemId: string,
    params: SnapshotParams = {},
    options?: RequestOptions,
  ): Promise<SystemSnapshotPage> {
    return this.api.invoke(contract.systems.snapshot, {
      params: { id: systemId },
      query: {
        ...(params.limit !== undefined ? { limit: params.limit } : {}),
        ...(params.cursor ? { cursor: params.cursor } : {}),
      },
      options,
    });
  }

  /**
   * Every page of a system's snapshot: 10,000 datasets are 20 requests at the default 500 per page, or
   * 10 with `limit: 1000`. The next page is requested as soon as a page has arrived, before it is
   * handed to the loop, so that the server prepares it while the loop works on this one (at most two
   * pages are held at once; leaving the loop early leaves that one request's answer unread).
   *
   * ```ts
   * for await (const page of client.systems.snapshot(systemId)) {
   *   for (const { dataset, version } of page.items) registry.set(dataset.id, version);
   * }
   * ```
   */
  async *snapshot(
    systemId: string,
    params: Omit<SnapshotParams, 'cursor'> = {},
    options?: RequestOptions,
  ): AsyncGenerator<SystemSnapshotPage, void, undefined> {
    let next: Promise<SystemSnapshotPage> | undefined = this.snapshotPage(systemId, params, options);
    try {
      while (next) {
        const page: SystemSnapshotPage = await next;
        const cursor = page.next_cursor;
        next = cursor ? this.snapshotPage(systemId, { ...params, cursor }, options) : undefined;
        yield page;
      }
    } finally {
      // A loop left early: the request already sent must not end as an unhandled rejection.
      next?.catch(() => undefined);
    }
  }

  /**
   * `GET /systems/{id}/snapshot/fingerprints` — one page of the light snapshot (ADR 0032): per dataset
   * (deleted ones aside, in id order) its names, current version number and the structural fingerprint
   * of that version (`@aide/schemas/fingerprint`; null when the registry has none yet). `limit` is
   * 1..10,000 (server default 5,000).
   */
  fingerprintsPage(
    systemId: string,
    params: SnapshotParams = {},
    options?: RequestOptions,
  ): Promise<SystemFingerprintsPage> {
    return this.api.invoke(contract.systems.fingerprints, {
      params: { id: systemId },
      query: {
        ...(params.limit !== undefined ? { limit: params.limit } : {}),
        ...(params.cursor ? { cursor: params.cursor } : {}),
      },
      options,
    });
  }

  /** Every page of `fingerprintsPage`, each requested when the previous one has arrived. */
  async *fingerprints(
    systemId: string,
    params: Omit<SnapshotParams, 'cursor'> = {},
    options?: RequestOptions,
  ): AsyncGenerator<SystemFingerprintsPage, void, undefined> {
    let cursor: string | null | undefined;
    do {
      const page: SystemFingerprintsPage = await this.fingerprintsPage(
        systemId,
        { ...params, cursor: cursor ?? undefined },
        options,
      );
      cursor = page.next_cursor;
      yield page;
    } while (cursor);
  }

  /**
   * `POST /systems/{id}/snapshot/versions` — the snapshot items (dataset and current version) of up to
   * 1,000 datasets of the system, in id order; datasets not active in the system are left out. A read:
   * retried like a GET.
   */
  snapshotVersions(
    systemId: string,
    datasetIds: readonly string[],
    options?: RequestOptions,
  ): Promise<SystemSnapshotPage> {
    return this.api.invoke(contract.systems.snapshotVersions, {
      params: { id: systemId },
      body: { dataset_ids: [...datasetIds] },
      options,
    });
  }
}
