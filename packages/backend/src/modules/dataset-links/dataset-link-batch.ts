import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** An active dataset link as the OpenLineage intake reads and writes it. */
export interface ActiveLink {
  id: string;
  source_dataset_id: string;
  target_dataset_id: string;
  /** Null: the side had no version when linked (ADR 0054). */
  source_schema_id: string | null;
  target_schema_id: string | null;
}

/** A dataset held by the caller (share-locked) with its current version; null when it has none. */
export interface PinnedSide {
  id: string;
  schema_id: string | null;
}

/**
 * What `linkEvery` made of one (source, target) pair: `confirmed` (its active link), `created` (a new
 * link on both current versions, a side without one unpinned: ADR 0054), or `raced` (a link inserted by
 * a concurrent writer after this statement's snapshot: read it with `activeOfPairs`).
 */
export interface PairOutcome {
  source_dataset_id: string;
  target_dataset_id: string;
  outcome: 'confirmed' | 'created' | 'raced';
  /** The link confirmed or created; null otherwise. */
  id: string | null;
  source_schema_id: string | null;
  target_schema_id: string | null;
}

/**
 * Dataset links read and written by the set, one statement whatever their number (the OpenLineage
 * intake, ADR 0022). Exported by `DatasetLinksModule`: the module that owns dataset links writes them
 * (ADR 0026). The caller has checked the pairs (both datasets active, share-locked).
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

  /**
   * Every source × target pair but self pairs, in one statement (the cross product is PostgreSQL's, not
   * the caller's): the active link confirmed, or one created pinned to both current versions. A side
   * without a version is linked unpinned (null), and an unpinned side of a confirmed link is pinned
   * once the dataset has a version (ADR 0054). Outcomes in
   * target order, then source order, as given. The caller has share-locked the datasets and bounded
   * `sources.length × targets.length`.
   */
  linkEvery(
    sources: readonly PinnedSide[],
    targets: readonly PinnedSide[],
    note: string,
    actorId: string,
    m: EntityManager,
  ): Promise<PairOutcome[]> {
    if (sources.length === 0 || targets.length === 0) return Promise.resolve([]);
    return m.query(
      `WITH s AS (SELECT * FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS s(id, schema_id, n)),
            t AS (SELECT * FROM unnest($3::uuid[], $4::uuid[]) WITH ORDINALITY AS t(id, schema_id, n)),
            p AS (SELECT s.id AS s, t.id AS t, s.schema_id AS ss, t.schema_id AS ts, s.n AS sn, t.n AS tn
                  FROM s CROSS JOIN t WHERE s.id <> t.id),
            -- One probe of uq_dataset_links_pair_active per pair (LIMIT 1 keeps the subquery a probe):
            -- a plan that cannot see the arrays' lengths (a generic plan counts 10 × 10 pairs) would
            -- otherwise hash every active link of the registry (ADR 0056).
            active AS (
              SELECT l.id, l.source_dataset_id, l.target_dataset_id, l.source_schema_id, l.target_schema_id,
                     p.ss, p.ts
              FROM p CROSS JOIN LATERAL (
                SELECT * FROM dataset_links l
                WHERE l.source_dataset_id = p.s AND l.target_dataset_id = p.t AND l.deleted_at IS NULL
                LIMIT 1) l),
            pinned AS (
              UPDATE dataset_links l
              SET source_schema_id = coalesce(l.source_schema_id, a.ss),
                  target_schema_id = coalesce(l.target_schema_id, a.ts),
                  updated_at = now(), updated_by = $6, row_version = l.row_version + 1
              FROM active a
              WHERE l.id = a.id AND l.deleted_at IS NULL
                AND ((l.source_schema_id IS NULL AND a.ss IS NOT NULL)
                  OR (l.target_schema_id IS NULL AND a.ts IS NOT NULL))
              RETURNING l.id),
            created AS (
              INSERT INTO dataset_links (source_dataset_id, target_dataset_id, source_schema_id, target_schema_id,
                                         note, created_by, updated_by)
              SELECT p.s, p.t, p.ss, p.ts, $5, $6, $6 FROM p
              WHERE NOT EXISTS (SELECT 1 FROM active a WHERE a.source_dataset_id = p.s AND a.target_dataset_id = p.t)
              ON CONFLICT (source_dataset_id, target_dataset_id) WHERE deleted_at IS NULL DO NOTHING
              RETURNING id, source_dataset_id, target_dataset_id, source_schema_id, target_schema_id)
       SELECT p.s AS source_dataset_id, p.t AS target_dataset_id,
              CASE WHEN a.id IS NOT NULL THEN 'confirmed' WHEN c.id IS NOT NULL THEN 'created'
                   ELSE 'raced' END AS outcome,
              coalesce(a.id, c.id) AS id,
              CASE WHEN a.id IS NOT NULL THEN coalesce(a.source_schema_id, p.ss) ELSE c.source_schema_id END
                AS source_schema_id,
              CASE WHEN a.id IS NOT NULL THEN coalesce(a.target_schema_id, p.ts) ELSE c.target_schema_id END
                AS target_schema_id
       FROM p
       LEFT JOIN active a ON a.source_dataset_id = p.s AND a.target_dataset_id = p.t
       LEFT JOIN created c ON c.source_dataset_id = p.s AND c.target_dataset_id = p.t
       ORDER BY p.tn, p.sn`,
      [
        sources.map((x) => x.id),
        sources.map((x) => x.schema_id),
        targets.map((x) => x.id),
        targets.map((x) => x.schema_id),
        note,
        actorId,
      ],
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
    const col = (f: (l: Omit<ActiveLink, 'id'>) => string | null) => links.map(f);
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
