import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** An active dataset link as the OpenLineage intake reads and writes it. */
export interface ActiveLink {
  id: string;
  source_dataset_id: string;
  target_dataset_id: string;
  source_schema_id: string;
  target_schema_id: string;
}

/**
 * Dataset links read and written by the set, one statement whatever their number (the OpenLineage
 * intake, ADR 0022). Exported by `DatasetLinksModule`: the module that owns dataset links writes them
 * (ADR 0026). The caller has checked the pairs (both datasets active and pinned to a version).
 */
@Injectable()
export class DatasetLinkBatch {
  /** The active links of the given (source, target) pairs. */
  activeOfPairs(pairs: readonly [string, string][], m: EntityManager): Promise<ActiveLink[]> {
    if (pairs.length === 0) return Promise.resolve([]);
    return m.query(
      `SELECT l.id, l.source_dataset_id, l.target_dataset_id, l.source_schema_id, l.target_schema_id
       FROM unnest($1::uuid[], $2::uuid[]) AS p(s, t)
       JOIN dataset_links l ON l.source_dataset_id = p.s AND l.target_dataset_id = p.t AND l.deleted_at IS NULL`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
  }

  /** Inserts the links whose pair has no active link yet; a pair taken meanwhile is left out. */
  insertPinned(
    links: readonly Omit<ActiveLink, 'id'>[],
    note: string,
    actorId: string,
    m: EntityManager,
  ): Promise<ActiveLink[]> {
    if (links.length === 0) return Promise.resolve([]);
    const col = (f: (l: Omit<ActiveLink, 'id'>) => string) => links.map(f);
    return m.query(
      `INSERT INTO dataset_links (source_dataset_id, target_dataset_id, source_schema_id, target_schema_id,
                                  note, created_by, updated_by)
       SELECT s, t, ss, ts, $5, $6, $6 FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[]) AS p(s, t, ss, ts)
       ON CONFLICT (source_dataset_id, target_dataset_id) WHERE deleted_at IS NULL DO NOTHING
       RETURNING id, source_dataset_id, target_dataset_id, source_schema_id, target_schema_id`,
      [
        col((l) => l.source_dataset_id),
        col((l) => l.target_dataset_id),
        col((l) => l.source_schema_id),
        col((l) => l.target_schema_id),
        note,
        actorId,
      ],
    );
  }
}
