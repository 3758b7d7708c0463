import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A field link as the OpenLineage intake reads and writes it. */
export interface LinkedField {
  id: string;
  dataset_link_id: string;
  source_field_id: string;
  target_field_id: string;
}

/**
 * Field links read and written by the set, one statement whatever their number (the OpenLineage
 * intake, ADR 0022). Exported by `FieldLinksModule`: the module that owns field links writes them
 * (ADR 0026). The caller has applied the field-link rules (root fields, bound in the pinned versions).
 */
@Injectable()
export class FieldLinkBatch {
  /** The field links inside the given dataset links. */
  ofLinks(linkIds: readonly string[], m: EntityManager): Promise<LinkedField[]> {
    if (linkIds.length === 0) return Promise.resolve([]);
    return m.query(
      `SELECT id, dataset_link_id, source_field_id, target_field_id FROM field_links
       WHERE dataset_link_id = ANY($1::uuid[])`,
      [linkIds],
    );
  }

  /** Inserts field links; a target taken meanwhile in its link is left out. */
  insertMany(
    links: readonly Omit<LinkedField, 'id'>[],
    actorId: string,
    m: EntityManager,
  ): Promise<LinkedField[]> {
    if (links.length === 0) return Promise.resolve([]);
    return m.query(
      `INSERT INTO field_links (dataset_link_id, source_field_id, target_field_id, created_by, updated_by)
       SELECT l, s, t, $4, $4 FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS p(l, s, t)
       ON CONFLICT (dataset_link_id, target_field_id) DO NOTHING
       RETURNING id, dataset_link_id, source_field_id, target_field_id`,
      [
        links.map((l) => l.dataset_link_id),
        links.map((l) => l.source_field_id),
        links.map((l) => l.target_field_id),
        actorId,
      ],
    );
  }
}
