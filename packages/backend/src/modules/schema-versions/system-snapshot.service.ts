import { DEFAULT_SNAPSHOT_LIMIT, type SystemSnapshotPage, type SystemSnapshotQuery } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { validationError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetSchemasRepository } from '../dataset-schemas/dataset-schemas.repository.js';
import { toDataset } from '../datasets/dataset.mapper.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { SystemsLookup } from '../systems/systems.lookup.js';
import { SchemaVersionReader } from './schema-version.reader.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The cursor is the last dataset id of the page, opaque to clients. */
function encodeCursor(datasetId: string): string {
  return Buffer.from(datasetId).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('latin1');
  if (!UUID.test(id)) {
    throw validationError(
      [{ path: ['cursor'], message: 'must be a next_cursor of a previous page' }],
      'The query string is invalid.',
    );
  }
  return id;
}

/**
 * A system's registry side for a crawler: every active dataset (is_active or not, deleted ones aside)
 * with its current version, by pages in dataset id order. A page costs the same six queries whatever
 * its size: system, datasets with details, current versions, bindings, type trees, PII tags; read in
 * one REPEATABLE READ transaction so a page is consistent.
 */
@Injectable()
export class SystemSnapshotService {
  constructor(
    private readonly systems: SystemsLookup,
    private readonly datasets: DatasetsLookup,
    private readonly schemas: DatasetSchemasRepository,
    private readonly reader: SchemaVersionReader,
    private readonly tx: Transactions,
  ) {}

  page(systemId: string, query: SystemSnapshotQuery): Promise<SystemSnapshotPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const limit = query.limit ?? DEFAULT_SNAPSHOT_LIMIT;
    return this.tx.run(async (m) => {
      await this.systems.requireActive(systemId, m);
      // One row more than the page tells whether another page follows.
      const rows = await this.datasets.findSystemPage(systemId, after, limit + 1, m);
      const page = rows.slice(0, limit);
      const headers = await this.schemas.findCurrentOfMany(
        page.map((d) => d.id),
        m,
      );
      const versions = await this.reader.many(headers, m);
      const currentOf = new Map(headers.map((h) => [h.dataset_id, versions.get(h.id) ?? null]));
      const last = page.at(-1);
      return {
        system_id: systemId,
        items: page.map((d) => ({ dataset: toDataset(d), version: currentOf.get(d.id) ?? null })),
        next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null,
      };
    }, 'REPEATABLE READ');
  }
}
