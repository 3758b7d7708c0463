// The registry's bulk routes the crawler needs (issue 9 §1), called through @aide/sdk's extension point
// (`client.resource(def, capabilities, Own)`): the same transport, token renewal, retries and response
// validation as every SDK call. Replace with the SDK's own methods once it has them.
import { randomUUID } from 'node:crypto';
import {
  BulkCreateDatasetsResultSchema,
  BulkPublishResultSchema,
  systemResource,
  SystemSnapshotPageSchema,
  type BulkCreateDatasets,
  type BulkCreateDatasetsResult,
  type BulkPublish,
  type BulkPublishResult,
  type CreateSystem,
  type System,
  type SystemSnapshotPage,
} from '@aide/schemas';
import { CollectionResource, type AideClient } from '@aide/sdk';

class CrawlerRoutes extends CollectionResource<System, CreateSystem> {
  /** `GET /systems/{id}/snapshot`: one page of active datasets with their current versions. */
  snapshot(
    systemId: string,
    query: { cursor?: string | undefined; limit: number },
  ): Promise<SystemSnapshotPage> {
    return this.api.call(
      { method: 'GET', path: `${this.itemPath(systemId)}/snapshot`, query },
      SystemSnapshotPageSchema,
    );
  }

  /** `POST /datasets/bulk`: each dataset created on its own. Retried safely under one idempotency key. */
  createDatasets(body: BulkCreateDatasets): Promise<BulkCreateDatasetsResult> {
    return this.api.call(
      {
        method: 'POST',
        path: '/api/v1/datasets/bulk',
        json: body,
        options: { idempotencyKey: randomUUID() },
      },
      BulkCreateDatasetsResultSchema,
    );
  }

  /** `POST /schema-versions/bulk`: each version published on its own, checked against its base. */
  publishVersions(body: BulkPublish): Promise<BulkPublishResult> {
    return this.api.call(
      {
        method: 'POST',
        path: '/api/v1/schema-versions/bulk',
        json: body,
        options: { idempotencyKey: randomUUID() },
      },
      BulkPublishResultSchema,
    );
  }
}

export type RegistryRoutes = Pick<CrawlerRoutes, 'snapshot' | 'createDatasets' | 'publishVersions'>;

export function registryRoutes(client: AideClient): RegistryRoutes {
  return client.resource(systemResource, { softDelete: false, batch: false }, CrawlerRoutes);
}
