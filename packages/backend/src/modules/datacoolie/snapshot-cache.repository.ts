import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { registerConstraintCodes } from '../../common/errors/db-error.js';

registerConstraintCodes({
  fk_provider_snapshots_workspace: 'WORKSPACE_NOT_FOUND',
  fk_provider_snapshot_pages_snapshot: 'PROVIDER_SNAPSHOT_EXPIRED',
});

export interface KeptSnapshot {
  id: string;
  workspace_id: string;
  revision: string;
  pages: number;
}

/** Change rows are kept this long; a snapshot read earlier than that is never stored. */
export const CHANGE_RETENTION_MS = 10 * 60_000;
/** Older snapshots of a workspace stay this long after a newer one, for clients paging through them. */
const SUPERSEDED_RETENTION = `interval '10 minutes'`;

/**
 * Built snapshots, kept as gzip pages (provider_snapshots, provider_snapshot_pages), and the change
 * log that says whether one is still current (provider_changes, written by statement triggers on
 * every input table: see migration 1765600000000).
 */
@Injectable()
export class SnapshotCacheRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The newest kept snapshot of the workspace (at this page size) that no committed change has
   * outdated: every change row visible now is visible in the MVCC snapshot it was read in. A change
   * still in progress is invisible here and in the data alike, so the kept snapshot still matches
   * what a read now would see.
   */
  async current(workspaceId: string, pageSize: number, m?: EntityManager): Promise<KeptSnapshot | undefined> {
    const rows: KeptSnapshot[] = await (m ?? this.dataSource.manager).query(
      `SELECT s.id, s.workspace_id, s.revision, s.pages FROM provider_snapshots s
       WHERE s.workspace_id = $1 AND s.page_size = $2
         AND NOT EXISTS (
           SELECT 1 FROM provider_changes c
           WHERE c.xid >= pg_snapshot_xmin(s.read_in) AND NOT pg_visible_in_snapshot(c.xid, s.read_in))
       ORDER BY s.created_at DESC LIMIT 1`,
      [workspaceId, pageSize],
    );
    return rows[0];
  }

  async store(
    snapshot: KeptSnapshot & { read_in: string; page_size: number },
    pages: readonly Buffer[],
    m: EntityManager,
  ): Promise<void> {
    await m.query(
      `INSERT INTO provider_snapshots (id, workspace_id, revision, read_in, pages, page_size)
       VALUES ($1, $2, $3, $4::pg_snapshot, $5, $6)`,
      [
        snapshot.id,
        snapshot.workspace_id,
        snapshot.revision,
        snapshot.read_in,
        snapshot.pages,
        snapshot.page_size,
      ],
    );
    for (const [index, body] of pages.entries()) {
      await m.query('INSERT INTO provider_snapshot_pages (snapshot_id, page, body) VALUES ($1, $2, $3)', [
        snapshot.id,
        index + 1,
        body,
      ]);
    }
  }

  /** One page of a kept snapshot, or undefined once it is no longer kept. */
  async page(snapshotId: string, page: number): Promise<(KeptSnapshot & { body: Buffer }) | undefined> {
    const rows: (KeptSnapshot & { body: Buffer })[] = await this.dataSource.query(
      `SELECT s.id, s.workspace_id, s.revision, s.pages, p.body FROM provider_snapshots s
       JOIN provider_snapshot_pages p ON p.snapshot_id = s.id WHERE s.id = $1 AND p.page = $2`,
      [snapshotId, page],
    );
    return rows[0];
  }

  /**
   * Drops the workspace's superseded snapshots once old enough, and change rows that every kept
   * snapshot already sees and that are older than any snapshot still being read (CHANGE_RETENTION_MS).
   */
  async prune(workspaceId: string, keepId: string, m: EntityManager): Promise<void> {
    await m.query(
      `DELETE FROM provider_snapshots
       WHERE workspace_id = $1 AND id <> $2 AND created_at < now() - ${SUPERSEDED_RETENTION}`,
      [workspaceId, keepId],
    );
    await m.query(
      `DELETE FROM provider_changes
       WHERE at < now() - make_interval(secs => $1)
         AND xid < coalesce((SELECT min(pg_snapshot_xmin(read_in)) FROM provider_snapshots), pg_current_xact_id())`,
      [CHANGE_RETENTION_MS / 1000],
    );
  }
}
