import { linkLayerOrder } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * A dataflow from one dataset to another is also a lineage hop (DESIGN §7b): its dataset link is
 * reused when the pair has one, else created with the lineage rules of a link — both datasets layered,
 * the destination's layer after the source's, each pinned to its current version (the highest with
 * bindings, else the highest). When the rules cannot be met the dataflow stands without a link.
 * Exported by `DatasetLinksModule`: the module that owns dataset links writes them (ADR 0026).
 */
@Injectable()
export class DataflowLineage {
  async linkFor(
    sourceId: string,
    targetId: string,
    actorId: string,
    m: EntityManager,
  ): Promise<string | null> {
    if (sourceId === targetId) return null;
    const existing = await this.activeLink(sourceId, targetId, m);
    if (existing) return existing;
    const rows: { id: string; layer: string | null; pin: string | null }[] = await m.query(
      `SELECT d.id, d.layer,
              (SELECT s.id FROM dataset_schemas s WHERE s.dataset_id = d.id
               ORDER BY EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = s.id) DESC,
                        s.version_num DESC LIMIT 1) AS pin
       FROM datasets d WHERE d.id = ANY($1::uuid[])`,
      [[sourceId, targetId]],
    );
    const source = rows.find((r) => r.id === sourceId);
    const target = rows.find((r) => r.id === targetId);
    if (!source?.pin || !target?.pin) return null;
    if (linkLayerOrder(source.layer, target.layer) !== 'ordered') return null;
    // A concurrent writer may create the pair's link first: then that one is reused.
    const inserted: { id: string }[] = await m.query(
      `INSERT INTO dataset_links (source_dataset_id, target_dataset_id, source_schema_id, target_schema_id,
                                  created_by, updated_by, note)
       VALUES ($1, $2, $3, $4, $5, $5, 'Created for a dataflow')
       ON CONFLICT (source_dataset_id, target_dataset_id) WHERE deleted_at IS NULL DO NOTHING
       RETURNING id`,
      [sourceId, targetId, source.pin, target.pin, actorId],
    );
    return inserted[0]?.id ?? (await this.activeLink(sourceId, targetId, m));
  }

  private async activeLink(sourceId: string, targetId: string, m: EntityManager): Promise<string | null> {
    const rows: { id: string }[] = await m.query(
      `SELECT id FROM dataset_links
       WHERE source_dataset_id = $1 AND target_dataset_id = $2 AND deleted_at IS NULL`,
      [sourceId, targetId],
    );
    return rows[0]?.id ?? null;
  }
}
