import type { FieldTransformation } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A field link as the OpenLineage intake reads and writes it. */
export interface LinkedField {
  id: string;
  dataset_link_id: string;
  source_field_id: string;
  target_field_id: string;
  transformations: FieldTransformation[];
}

/** A field link to insert: the transformations are optional (`[]`: not known). */
export type NewLinkedField = Omit<LinkedField, 'id' | 'transformations'> & {
  transformations?: FieldTransformation[];
};

/**
 * Field links read and written by the set, one statement whatever their number (the OpenLineage
 * intake, ADR 0022). Exported by `FieldLinksModule`: the module that owns field links writes them
 * (ADR 0026). The caller has applied the field-link rules (root fields, bound in the pinned versions)
 * and gives canonical transformations (`canonicalTransformations`).
 */
@Injectable()
export class FieldLinkBatch {
  /** The field links inside the given dataset links. */
  ofLinks(linkIds: readonly string[], m: EntityManager): Promise<LinkedField[]> {
    if (linkIds.length === 0) return Promise.resolve([]);
    return m.query(
      `SELECT id, dataset_link_id, source_field_id, target_field_id, transformations FROM field_links
       WHERE dataset_link_id = ANY($1::uuid[])`,
      [linkIds],
    );
  }

  /** Inserts field links; an edge (link, source, target) inserted meanwhile is left out. */
  insertMany(links: readonly NewLinkedField[], actorId: string, m: EntityManager): Promise<LinkedField[]> {
    if (links.length === 0) return Promise.resolve([]);
    return m.query(
      `INSERT INTO field_links (dataset_link_id, source_field_id, target_field_id, transformations, created_by, updated_by)
       SELECT l, s, t, x, $5, $5 FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::jsonb[]) AS p(l, s, t, x)
       ON CONFLICT (dataset_link_id, source_field_id, target_field_id) DO NOTHING
       RETURNING id, dataset_link_id, source_field_id, target_field_id, transformations`,
      [
        links.map((l) => l.dataset_link_id),
        links.map((l) => l.source_field_id),
        links.map((l) => l.target_field_id),
        links.map((l) => JSON.stringify(l.transformations ?? [])),
        actorId,
      ],
    );
  }

  /** Replaces the transformations of existing field links (a re-sent edge with other ones). */
  async setTransformations(
    changes: readonly { id: string; transformations: FieldTransformation[] }[],
    actorId: string,
    m: EntityManager,
  ): Promise<void> {
    if (changes.length === 0) return;
    await m.query(
      `UPDATE field_links f SET transformations = c.x, updated_by = $3, updated_at = now(),
              row_version = f.row_version + 1
       FROM unnest($1::uuid[], $2::jsonb[]) AS c(id, x) WHERE f.id = c.id`,
      [changes.map((c) => c.id), changes.map((c) => JSON.stringify(c.transformations)), actorId],
    );
  }
}
