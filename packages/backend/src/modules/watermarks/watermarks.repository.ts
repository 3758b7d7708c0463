import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { registerConstraintCodes } from '../../common/errors/db-error.js';

registerConstraintCodes({
  fk_watermarks_dataflow: 'DATAFLOW_NOT_FOUND',
  fk_watermark_history_dataflow: 'DATAFLOW_NOT_FOUND',
});

export interface WatermarkRow {
  dataflow_id: string;
  current_value: string | null;
  previous_value: string | null;
  job_id: string | null;
  dataflow_run_id: string | null;
  updated_at: Date | null;
  revision: number;
}

export interface HistoryRow {
  dataflow_id: string;
  revision: number;
  value: string;
  job_id: string | null;
  dataflow_run_id: string | null;
  written_at: Date;
  written_by: string | null;
}

export interface WatermarkWrite {
  dataflowId: string;
  /** When set, the dataflow must belong to this workspace. */
  workspaceId: string | null;
  value: string;
  jobId: string | null;
  dataflowRunId: string | null;
  actorId: string | null;
  /** Writes kept in the history: the write prunes the ones before the last `historyKept`. */
  historyKept: number;
}

/** `owned` false: no active dataflow of that id (in that workspace). */
export type WriteResult = { owned: false } | { owned: true; revision: number; written: boolean };

const OWNER = `SELECT id FROM dataflows
  WHERE id = $1 AND deleted_at IS NULL AND ($2::uuid IS NULL OR workspace_id = $2::uuid)`;

@Injectable()
export class WatermarksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The dataflow's watermark (revision 0 and nulls when never written), or undefined without the dataflow. */
  async read(
    dataflowId: string,
    workspaceId: string | null,
    m?: EntityManager,
  ): Promise<WatermarkRow | undefined> {
    const rows: WatermarkRow[] = await (m ?? this.dataSource.manager).query(
      `SELECT d.id AS dataflow_id, w.current_value, w.previous_value, w.job_id, w.dataflow_run_id,
              w.updated_at, coalesce(w.revision, 0) AS revision
       FROM (${OWNER}) d LEFT JOIN watermarks w ON w.dataflow_id = d.id`,
      [dataflowId, workspaceId],
    );
    return rows[0];
  }

  /**
   * The write is one statement: the dataflow is share-locked, the row inserted or updated in place (the previous
   * value rotated, the revision incremented under the row lock, so concurrent writers queue and none
   * is lost) and the write appended to the history with its revision. Then the history is pruned to
   * the last `historyKept` writes: revisions are consecutive, so that is one range of the primary key,
   * deleted by a statement of its own, whose snapshot (taken under the row lock) sees the history
   * rows of every writer that committed before this one — the first statement's, taken before it
   * queued, would not. A write equal to the current one (value and provenance) is a retry: nothing
   * changes and the current revision is answered.
   */
  async write(w: WatermarkWrite, m: EntityManager): Promise<WriteResult> {
    const rows: { owned: boolean; revision: number | null }[] = await m.query(
      `WITH owner AS (${OWNER} FOR SHARE),
       written AS (
         INSERT INTO watermarks AS w
           (dataflow_id, current_value, previous_value, job_id, dataflow_run_id, updated_at, updated_by, revision)
         SELECT id, $3, NULL, $4, $5, now(), $6, 1 FROM owner
         ON CONFLICT (dataflow_id) DO UPDATE SET
           previous_value = w.current_value, current_value = EXCLUDED.current_value,
           job_id = EXCLUDED.job_id, dataflow_run_id = EXCLUDED.dataflow_run_id,
           updated_at = now(), updated_by = EXCLUDED.updated_by, revision = w.revision + 1
         WHERE (w.current_value, w.job_id, w.dataflow_run_id)
               IS DISTINCT FROM (EXCLUDED.current_value, EXCLUDED.job_id, EXCLUDED.dataflow_run_id)
         RETURNING dataflow_id, revision, current_value, job_id, dataflow_run_id, updated_at, updated_by),
       logged AS (
         INSERT INTO watermark_history (dataflow_id, revision, value, job_id, dataflow_run_id, written_at, written_by)
         SELECT dataflow_id, revision, current_value, job_id, dataflow_run_id, updated_at, updated_by FROM written)
       SELECT EXISTS (SELECT 1 FROM owner) AS owned, (SELECT revision FROM written) AS revision`,
      [w.dataflowId, w.workspaceId, w.value, w.jobId, w.dataflowRunId, w.actorId],
    );
    const row = rows[0];
    if (!row.owned) return { owned: false };
    if (row.revision !== null) {
      if (row.revision > w.historyKept) {
        await m.query('DELETE FROM watermark_history WHERE dataflow_id = $1 AND revision <= $2', [
          w.dataflowId,
          row.revision - w.historyKept,
        ]);
      }
      return { owned: true, revision: row.revision, written: true };
    }
    const current: { revision: number }[] = await m.query(
      'SELECT revision FROM watermarks WHERE dataflow_id = $1',
      [w.dataflowId],
    );
    return { owned: true, revision: current[0].revision, written: false };
  }

  /**
   * The registry id of a workspace's active dataflow named by the id DataCoolie sees, else by its
   * registry id (`registryId`: the name when it is a UUID), or undefined.
   */
  async resolveInWorkspace(
    workspaceId: string,
    name: string,
    registryId: string | null,
  ): Promise<string | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM dataflows
       WHERE workspace_id = $1 AND deleted_at IS NULL AND (datacoolie_id = $2 OR id = $3::uuid)
       ORDER BY datacoolie_id = $2 DESC LIMIT 1`,
      [workspaceId, name, registryId],
    );
    return rows[0]?.id;
  }

  /** The workspace of an active dataflow, or undefined. */
  async workspaceOf(dataflowId: string): Promise<string | undefined> {
    const rows: { workspace_id: string }[] = await this.dataSource.query(
      'SELECT workspace_id FROM dataflows WHERE id = $1 AND deleted_at IS NULL',
      [dataflowId],
    );
    return rows[0]?.workspace_id;
  }

  /** A page of a dataflow's history, newest first. */
  async history(
    dataflowId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: HistoryRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.dataSource.query<HistoryRow[]>(
        `SELECT dataflow_id, revision, value, job_id, dataflow_run_id, written_at, written_by
         FROM watermark_history WHERE dataflow_id = $1 ORDER BY revision DESC LIMIT $2 OFFSET $3`,
        [dataflowId, limit, offset],
      ),
      this.dataSource.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM watermark_history WHERE dataflow_id = $1',
        [dataflowId],
      ),
    ]);
    return { rows, total: count[0]?.n ?? 0 };
  }
}
