import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { registerConstraintCodes } from '../../common/errors/db-error.js';

// A shape is stored in the publish's own transaction, so its version exists; a version deleted under a
// concurrent re-store is the only way to break this key.
registerConstraintCodes({ fk_schema_version_read_shapes_schema: 'DATASET_SCHEMA_NOT_FOUND' });

/** A version's stored read shape (ADR 0029), see `SchemaVersionReadShapeEntity`. */
export interface ReadShape {
  dataset_schema_id: string;
  /** The version's JSON text, PII tags null. */
  version_json: string;
  /** The row_version of each data type the text was rendered from, by data type id. */
  data_types: Record<string, number>;
  /** The version's structural fingerprint (ADR 0032); null on shapes stored before it existed. */
  fingerprint: string | null;
}

/** What a fingerprint listing needs of a shape: its fingerprint and what tells whether it is current. */
export type ShapeFingerprint = Pick<ReadShape, 'dataset_schema_id' | 'data_types' | 'fingerprint'>;

/** The stored read shapes of schema versions: written at publish, read by the system snapshot. */
@Injectable()
export class ReadShapesRepository {
  /** The shapes of the given versions (those that have one), in one query. */
  async of(schemaIds: readonly string[], m: EntityManager): Promise<Map<string, ReadShape>> {
    if (schemaIds.length === 0) return new Map();
    const rows: ReadShape[] = await m.query(
      `SELECT r.dataset_schema_id, r.version_json, r.data_types, r.fingerprint
       FROM unnest($1::uuid[]) AS s(id)
       JOIN schema_version_read_shapes r ON r.dataset_schema_id = s.id`,
      [[...new Set(schemaIds)]],
    );
    return new Map(rows.map((r) => [r.dataset_schema_id, r]));
  }

  /** The fingerprints of the given versions' shapes (those that have one), without their texts. */
  async fingerprintsOf(
    schemaIds: readonly string[],
    m: EntityManager,
  ): Promise<Map<string, ShapeFingerprint>> {
    if (schemaIds.length === 0) return new Map();
    const rows: ShapeFingerprint[] = await m.query(
      `SELECT r.dataset_schema_id, r.data_types, r.fingerprint
       FROM unnest($1::uuid[]) AS s(id)
       JOIN schema_version_read_shapes r ON r.dataset_schema_id = s.id`,
      [[...new Set(schemaIds)]],
    );
    return new Map(rows.map((r) => [r.dataset_schema_id, r]));
  }

  /** Writes (or rewrites) shapes, one statement whatever their number. */
  async store(shapes: readonly ReadShape[], m: EntityManager): Promise<void> {
    if (shapes.length === 0) return;
    await m.query(
      `INSERT INTO schema_version_read_shapes (dataset_schema_id, version_json, data_types, fingerprint)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::text[])
       ON CONFLICT (dataset_schema_id) DO UPDATE
         SET version_json = EXCLUDED.version_json, data_types = EXCLUDED.data_types,
             fingerprint = EXCLUDED.fingerprint`,
      [
        shapes.map((s) => s.dataset_schema_id),
        shapes.map((s) => s.version_json),
        shapes.map((s) => JSON.stringify(s.data_types)),
        shapes.map((s) => s.fingerprint),
      ],
    );
  }
}
