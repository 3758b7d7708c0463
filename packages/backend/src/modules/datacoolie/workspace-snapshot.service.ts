import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import {
  type DataCoolieSnapshot,
  type DataCoolieSnapshotQuery,
  SNAPSHOT_DEFAULT_PAGE_SIZE,
  SNAPSHOT_HINT_FIELDS,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { assertWorkspaceInScope } from '../../common/auth/workspace-scope.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { WorkspacesLookup } from '../workspaces/workspaces.lookup.js';
import { DatacoolieScopeRepository } from './datacoolie-scope.repository.js';
import { assembleSnapshot, type SnapshotContent } from './snapshot-assembly.js';
import {
  CHANGE_RETENTION_MS,
  type KeptSnapshot,
  SnapshotCacheRepository,
} from './snapshot-cache.repository.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The items of a snapshot, whole (every page of it). */
export type SnapshotItems = Pick<
  DataCoolieSnapshot,
  'revision' | 'connections' | 'dataflows' | 'hint_fields' | 'schema_hints'
>;

/** Parsed snapshots are kept in memory by id (a kept snapshot never changes): the last few only. */
const PARSED_KEPT = 2;

/** The content's hash: equal metadata gives an equal revision, whatever was written in between. */
export function snapshotRevision(content: SnapshotContent): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url');
}

/** A page answer: its gzip body, or "not modified" when the client holds this revision. */
export type SnapshotPageAnswer =
  { notModified: true; revision: string } | { notModified: false; revision: string; gzip: Buffer };

type BuiltSnapshot = DataCoolieSnapshot & { readIn: string; startedAt: number };

/** A snapshot just built: its first page is at hand (a snapshot too slow to keep is served once). */
type FreshSnapshot = KeptSnapshot & { first: Buffer };

/** The flat item sequence of a snapshot (connections, dataflows, hint groups), cut into pages. */
function pagesOf(snapshot: DataCoolieSnapshot, id: string, pageSize: number): string[] {
  const items = snapshot.connections.length + snapshot.dataflows.length + snapshot.schema_hints.length;
  const count = Math.max(1, Math.ceil(items / pageSize));
  const c = snapshot.connections.length;
  const d = c + snapshot.dataflows.length;
  const slice = <T>(list: readonly T[], offset: number, from: number, to: number) =>
    list.slice(Math.max(0, from - offset), Math.max(0, to - offset));
  return Array.from({ length: count }, (_, i) => {
    const [from, to] = [i * pageSize, (i + 1) * pageSize];
    return JSON.stringify({
      workspace_id: snapshot.workspace_id,
      workspace_code: snapshot.workspace_code,
      revision: snapshot.revision,
      generated_at: snapshot.generated_at,
      page: i + 1,
      pages: count,
      next_cursor: i + 1 < count ? `${id}.${i + 2}` : null,
      connections: slice(snapshot.connections, 0, from, to),
      dataflows: slice(snapshot.dataflows, c, from, to),
      hint_fields: snapshot.hint_fields,
      schema_hints: slice(snapshot.schema_hints, d, from, to),
      excluded: i === 0 ? snapshot.excluded : [],
    });
  });
}

/**
 * A workspace's complete DataCoolie scope (reference §8.6 item 2), active and inactive, read in one
 * REPEATABLE READ transaction so that connections, dataflows and hints come from one MVCC snapshot —
 * never a torn scope, whatever is written meanwhile. A built snapshot is kept (gzip pages) and served
 * again while nothing it was read from has changed, so pipeline start-ups and revalidations cost a
 * lookup; pages of one snapshot come from one revision.
 */
@Injectable()
export class WorkspaceSnapshotService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly scope: DatacoolieScopeRepository,
    private readonly workspaces: WorkspacesLookup,
    private readonly cache: SnapshotCacheRepository,
    private readonly tx: Transactions,
  ) {}

  private readonly building = new Map<string, Promise<FreshSnapshot>>();
  private readonly parsed = new Map<string, Promise<SnapshotItems>>();

  /** Reads and assembles the snapshot now (no keeping). */
  build(workspaceRef: string): Promise<BuiltSnapshot> {
    const startedAt = Date.now();
    return this.dataSource.transaction('REPEATABLE READ', async (m) => {
      await m.query('SET TRANSACTION READ ONLY');
      // The hint read sorts and joins a few hundred thousand rows: in memory, not on disk.
      await m.query(`SET LOCAL work_mem = '64MB'`);
      const [{ read_in: readIn }] = await m.query<[{ read_in: string }]>(
        'SELECT pg_current_snapshot()::text AS read_in',
      );
      const workspace = await this.workspaces.findActiveByRef(workspaceRef, m);
      if (!workspace) throw new AppError('WORKSPACE_NOT_FOUND');
      const profiles = await this.scope.workspaceProfiles(workspace.id, m);
      const dataflows = await this.scope.workspaceDataflows(workspace.id, m);
      const datasets = await this.scope.workspaceDatasets(workspace.id, m);
      const hintTables = await this.scope.hintTables(workspace.id, m);
      const pinnedVersions = dataflows.some((d) => d.pinned_hint_schema_version_id !== null)
        ? await this.scope.pinnedHintVersions(workspace.id, m)
        : [];
      const overrides = await this.scope.hintOverrides(workspace.id, m);
      const declaredHints = await this.scope.declaredHintGroups(workspace.id, m);
      const content = assembleSnapshot({
        workspaceCode: workspace.code,
        profiles,
        dataflows,
        datasets,
        hintTables,
        pinnedVersions,
        overrides,
        declaredHints,
      });
      return {
        workspace_id: workspace.id,
        workspace_code: workspace.code,
        revision: snapshotRevision(content),
        generated_at: new Date().toISOString(),
        connections: content.connections,
        dataflows: content.dataflows,
        hint_fields: [...SNAPSHOT_HINT_FIELDS],
        schema_hints: content.schema_hints,
        excluded: content.excluded,
        readIn,
        startedAt,
      };
    });
  }

  /**
   * A page of the workspace's snapshot. The first page (no cursor) is the kept snapshot if it is
   * still current, else a new one (built once while concurrent callers wait for it); `ifNoneMatch`
   * equal to its revision answers "not modified". A cursor names a page of a kept snapshot, which
   * stays readable for a while after a newer one supersedes it.
   */
  async page(
    workspaceRef: string,
    query: DataCoolieSnapshotQuery,
    ifNoneMatch: readonly string[] = [],
    user?: AuthUser,
  ): Promise<SnapshotPageAnswer> {
    const workspace = await this.workspace(workspaceRef, user);
    if (query.cursor !== undefined) return this.cursorPage(workspace.id, query.cursor);
    const pageSize = query.page_size ?? SNAPSHOT_DEFAULT_PAGE_SIZE;
    const kept: KeptSnapshot & { first?: Buffer } =
      (await this.cache.current(workspace.id, pageSize)) ?? (await this.buildAndKeep(workspace.id, pageSize));
    if (ifNoneMatch.includes(kept.revision)) return { notModified: true, revision: kept.revision };
    if (kept.first) return { notModified: false, revision: kept.revision, gzip: kept.first };
    return this.cursorPage(workspace.id, `${kept.id}.1`);
  }

  /** The active workspace named by id or code, within the caller's API-key scope. */
  async workspace(workspaceRef: string, user?: AuthUser) {
    const workspace = await this.workspaces.findActiveByRef(workspaceRef);
    if (!workspace) throw new AppError('WORKSPACE_NOT_FOUND');
    assertWorkspaceInScope(user, workspace.id);
    return workspace;
  }

  /**
   * The whole current snapshot of a workspace (DataCoolie's paged listings are cut from it, so that
   * they too are consistent and cost no database read while nothing changes).
   */
  async items(workspaceId: string): Promise<SnapshotItems> {
    const pageSize = SNAPSHOT_DEFAULT_PAGE_SIZE;
    const kept =
      (await this.cache.current(workspaceId, pageSize)) ?? (await this.buildAndKeep(workspaceId, pageSize));
    let items = this.parsed.get(kept.id);
    if (!items) {
      items = this.readKept(kept);
      this.remember(kept.id, items);
    }
    return items;
  }

  private remember(id: string, items: Promise<SnapshotItems>): void {
    this.parsed.set(id, items);
    items.catch(() => this.parsed.delete(id));
    while (this.parsed.size > PARSED_KEPT) this.parsed.delete(this.parsed.keys().next().value!);
  }

  private async readKept(kept: KeptSnapshot): Promise<SnapshotItems> {
    const items: SnapshotItems = {
      revision: kept.revision,
      connections: [],
      dataflows: [],
      hint_fields: [],
      schema_hints: [],
    };
    for (let page = 1; page <= kept.pages; page++) {
      const found = await this.cache.page(kept.id, page);
      if (!found) throw new AppError('PROVIDER_SNAPSHOT_EXPIRED');
      const body = JSON.parse((await gunzipAsync(found.body)).toString('utf8')) as DataCoolieSnapshot;
      items.connections.push(...body.connections);
      items.dataflows.push(...body.dataflows);
      items.schema_hints.push(...body.schema_hints);
      items.hint_fields = body.hint_fields;
    }
    return items;
  }

  private async cursorPage(workspaceId: string, cursor: string): Promise<SnapshotPageAnswer> {
    const [id, page] = cursor.split('.') as [string, string];
    const found = await this.cache.page(id, Number(page));
    if (!found || found.workspace_id !== workspaceId) throw new AppError('PROVIDER_SNAPSHOT_EXPIRED');
    return { notModified: false, revision: found.revision, gzip: found.body };
  }

  /**
   * Builds and keeps a snapshot; concurrent callers of this replica share one build (other replicas
   * may build their own: both are correct, the newest is served).
   */
  private buildAndKeep(workspaceId: string, pageSize: number): Promise<FreshSnapshot> {
    const key = `${workspaceId}:${pageSize}`;
    let building = this.building.get(key);
    if (!building) {
      building = this.buildAndStore(workspaceId, pageSize).finally(() => this.building.delete(key));
      this.building.set(key, building);
    }
    return building;
  }

  private async buildAndStore(workspaceId: string, pageSize: number): Promise<FreshSnapshot> {
    const snapshot = await this.build(workspaceId);
    const kept = {
      id: randomUUID(),
      workspace_id: workspaceId,
      revision: snapshot.revision,
      read_in: snapshot.readIn,
    };
    const pages = await Promise.all(pagesOf(snapshot, kept.id, pageSize).map((page) => gzipAsync(page)));
    // A snapshot read longer ago than change rows are kept could miss a pruned change: not kept.
    if (Date.now() - snapshot.startedAt < CHANGE_RETENTION_MS / 2) {
      await this.tx.run(async (m) => {
        await this.cache.store({ ...kept, pages: pages.length, page_size: pageSize }, pages, m);
        await this.cache.prune(workspaceId, kept.id, m);
      });
    }
    return { ...kept, pages: pages.length, first: pages[0] };
  }
}
