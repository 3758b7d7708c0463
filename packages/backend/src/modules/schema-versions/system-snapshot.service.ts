import {
  contract,
  DEFAULT_FINGERPRINT_LIMIT,
  DEFAULT_SNAPSHOT_LIMIT,
  type SchemaVersion,
  type SnapshotVersionsRequest,
  type SystemFingerprintsPage,
  type SystemFingerprintsQuery,
  type SystemSnapshotQuery,
} from '@aide/schemas';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rawJson, type RawJson } from '../../common/contract/route.decorator.js';
import { validationError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import { DatasetSchemasRepository } from '../dataset-schemas/dataset-schemas.repository.js';
import type { DatasetRow } from '../datasets/dataset.entity.js';
import { toDataset } from '../datasets/dataset.mapper.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { FieldsRepository } from '../fields/fields.repository.js';
import { effectiveFlavorId } from '../datasets/dataset-flavor-rules.js';
import { SystemFlavorsLookup } from '../system-flavors/system-flavors.lookup.js';
import { SystemsLookup } from '../systems/systems.lookup.js';
import { type ReadShape, ReadShapesRepository } from './read-shapes.repository.js';
import { SchemaVersionReader, type VersionWithShape } from './schema-version.reader.js';

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
 * A stored shape is true while every data type it was rendered from is at the row_version it records;
 * one stored before fingerprints existed (ADR 0032) is rebuilt once, so that it gets one.
 */
function isCurrent(
  shape: Pick<ReadShape, 'data_types' | 'fingerprint'>,
  rowVersions: ReadonlyMap<string, number>,
): boolean {
  return (
    shape.fingerprint !== null &&
    Object.entries(shape.data_types).every(([id, version]) => rowVersions.get(id) === version)
  );
}

/** The cursor of the page after `rows` (fetched one past `limit`), or null when none follows. */
function nextCursorOf(rows: readonly DatasetRow[], limit: number): string | null {
  const last = rows.at(limit - 1);
  return rows.length > limit && last ? encodeCursor(last.id) : null;
}

/** A stored shape's text with the current PII tags of its classified fields (the rare case: parsed). */
function withPiiTags(shape: ReadShape, tags: ReadonlyMap<string, string[]>): string {
  const version = JSON.parse(shape.version_json) as SchemaVersion;
  for (const column of version.columns) column.pii_tags = tags.get(column.field_id) ?? null;
  return JSON.stringify(version);
}

/**
 * A system's registry side for a crawler: every active dataset (is_active or not, deleted ones aside)
 * with its current version, by pages in dataset id order, read in one REPEATABLE READ transaction so a
 * page is consistent. The versions are their stored read shapes (ADR 0029), sent as stored: the page
 * is JSON text assembled from them, never parsed and serialised again. The live parts are joined per
 * page: the datasets themselves, and the PII tags of the (few) classified fields. A version without a
 * current shape (published before shapes existed, or a data type it uses edited since) is read column
 * by column as before, and its shape stored after the page. A version that cannot be read whole is
 * answered with its `read_error` (never stored: it is read again each time), the page goes on.
 *
 * A page costs the same statements whatever its size: system, datasets, their flavors' codes, current
 * versions, shapes, their data types' row versions, classified fields (+ the three of a version read
 * when some shape is missing). Each item names the dataset's effective flavor (ADR 0045).
 */
@Injectable()
export class SystemSnapshotService {
  private readonly logger = new Logger(SystemSnapshotService.name);

  constructor(
    private readonly systems: SystemsLookup,
    private readonly flavors: SystemFlavorsLookup,
    private readonly datasets: DatasetsLookup,
    private readonly schemas: DatasetSchemasRepository,
    private readonly fields: FieldsRepository,
    private readonly dataTypes: DataTypesLookup,
    private readonly readShapes: ReadShapesRepository,
    private readonly reader: SchemaVersionReader,
    private readonly tx: Transactions,
  ) {}

  async page(
    systemId: string,
    query: SystemSnapshotQuery,
  ): Promise<RawJson<typeof contract.systems.snapshot>> {
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const limit = query.limit ?? DEFAULT_SNAPSHOT_LIMIT;
    return this.answer(systemId, async (m) => {
      // One row more than the page tells whether another page follows.
      const rows = await this.datasets.findSystemPage(systemId, after, limit + 1, m);
      return { page: rows.slice(0, limit), nextCursor: nextCursorOf(rows, limit) };
    });
  }

  /** The snapshot items of the given datasets of the system (a crawler's fetch of changed ones). */
  async versions(
    systemId: string,
    body: SnapshotVersionsRequest,
  ): Promise<RawJson<typeof contract.systems.snapshotVersions>> {
    return this.answer(systemId, async (m) => ({
      page: await this.datasets.findSystemDatasets(systemId, body.dataset_ids, m),
      nextCursor: null,
    }));
  }

  /**
   * The light side of the snapshot (ADR 0032): per dataset its names, current version number and the
   * fingerprint stored with that version's read shape, when the shape is current (else null: a full
   * read rebuilds it). Nothing of the versions is read but the shapes' fingerprints and data types.
   */
  async fingerprints(systemId: string, query: SystemFingerprintsQuery): Promise<SystemFingerprintsPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const limit = query.limit ?? DEFAULT_FINGERPRINT_LIMIT;
    return this.tx.run(async (m) => {
      await this.systems.requireActive(systemId, m);
      const rows = await this.datasets.findSystemPage(systemId, after, limit + 1, m);
      const page = rows.slice(0, limit);
      const headers = await this.schemas.findCurrentOfMany(
        page.map((d) => d.id),
        m,
      );
      const shapes = await this.readShapes.fingerprintsOf(
        headers.map((h) => h.id),
        m,
      );
      const rowVersions = await this.rowVersionsOf(shapes.values(), m);
      const current = new Map(headers.map((h) => [h.dataset_id, h]));
      const items = page.map((d) => {
        const dataset = toDataset(d);
        const header = current.get(d.id);
        const shape = header && shapes.get(header.id);
        return {
          dataset_id: d.id,
          kind: dataset.kind,
          object_name: dataset.object_name,
          schema_name: dataset.kind === 'rdbms' ? dataset.schema_name : null,
          table_name: dataset.kind === 'rdbms' ? dataset.table_name : null,
          version_num: header?.version_num ?? null,
          fingerprint: shape && isCurrent(shape, rowVersions) ? shape.fingerprint : null,
        };
      });
      return { system_id: systemId, items, next_cursor: nextCursorOf(rows, limit) };
    }, 'REPEATABLE READ');
  }

  /** The row_version of every data type the shapes were rendered from, by id. */
  private async rowVersionsOf(
    shapes: Iterable<Pick<ReadShape, 'data_types'>>,
    m: EntityManager,
  ): Promise<Map<string, number>> {
    const ids = new Set<string>();
    for (const shape of shapes) for (const id of Object.keys(shape.data_types)) ids.add(id);
    const info = await this.dataTypes.renderInfoOf([...ids], m);
    return new Map([...info].map(([id, i]) => [id, i.row_version]));
  }

  /**
   * A snapshot page of the datasets `select` picks (after checking the system), read in one
   * REPEATABLE READ transaction; the shapes it had to rebuild are stored afterwards.
   */
  private async answer<R extends typeof contract.systems.snapshot | typeof contract.systems.snapshotVersions>(
    systemId: string,
    select: (m: EntityManager) => Promise<{ page: DatasetRow[]; nextCursor: string | null }>,
  ): Promise<RawJson<R>> {
    const { text, rebuilt } = await this.tx.run(async (m) => {
      const system = await this.systems.requireActive(systemId, m);
      const { page, nextCursor } = await select(m);
      // Each dataset's effective flavor (its own, else the system's: ADR 0045), what a crawler types in.
      const flavorOf = new Map(page.map((d) => [d.id, effectiveFlavorId(d.flavor_id, system.flavor_id)]));
      const flavorCodes = await this.flavors.codesOf([...new Set(flavorOf.values())], m);
      const headers = await this.schemas.findCurrentOfMany(
        page.map((d) => d.id),
        m,
      );
      const shapes = await this.readShapes.of(
        headers.map((h) => h.id),
        m,
      );
      const rowVersions = await this.rowVersionsOf(shapes.values(), m);
      const stale: DatasetSchemaEntity[] = [];
      for (const h of headers) {
        const shape = shapes.get(h.id);
        if (!shape || !isCurrent(shape, rowVersions)) stale.push(h);
      }
      const fresh: ReadonlyMap<string, VersionWithShape> =
        stale.length > 0 ? await this.reader.withShapes(stale, m) : new Map();
      const classified = await this.fields.currentPiiTagsOfDatasets(
        headers.map((h) => h.dataset_id),
        m,
      );
      const piiTags = new Map(classified.map((f) => [f.id, f.pii_tags]));
      const tagged = new Set(classified.map((f) => f.dataset_id));
      const versionText = new Map<string, string>();
      for (const h of headers) {
        const read = fresh.get(h.id);
        const shape = shapes.get(h.id) as ReadShape;
        versionText.set(
          h.dataset_id,
          read
            ? JSON.stringify(read.version)
            : tagged.has(h.dataset_id)
              ? withPiiTags(shape, piiTags)
              : shape.version_json,
        );
      }
      const items = page.map((d) => {
        const flavorId = flavorOf.get(d.id) as string;
        const flavor = `"flavor_id":${JSON.stringify(flavorId)},"flavor_code":${JSON.stringify(flavorCodes.get(flavorId))}`;
        return `{"dataset":${JSON.stringify(toDataset(d))},${flavor},"version":${versionText.get(d.id) ?? 'null'}}`;
      });
      return {
        text: `{"system_id":${JSON.stringify(systemId)},"items":[${items.join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}`,
        rebuilt: [...fresh.values()].flatMap((r) => (r.shape ? [r.shape] : [])),
      };
    }, 'REPEATABLE READ');
    if (rebuilt.length > 0) await this.storeShapes(rebuilt);
    return rawJson(contract.systems.snapshot, text) as RawJson<R>;
  }

  /**
   * Stores the shapes a page had to rebuild, after the page's transaction (a read's snapshot could
   * conflict with a concurrent page storing the same ones). Best effort: a shape stored from data
   * types edited meanwhile records their old row_versions and is rebuilt again on a later read.
   */
  private async storeShapes(shapes: readonly ReadShape[]): Promise<void> {
    try {
      await this.tx.run((m) => this.readShapes.store(shapes, m));
    } catch (error) {
      this.logger.warn(`storing ${shapes.length} rebuilt read shapes failed: ${String(error)}`);
    }
  }
}
