import {
  DATACOOLIE_DEFAULT_PAGE_SIZE,
  type DataCoolieConnection,
  type DataCoolieDataflow,
  type DataCoolieSchemaHintRow,
  type DataCoolieSnapshotDataflow,
} from '@aide/schemas';
import { casefold } from '@aide/schemas/datacoolie';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { type SnapshotItems, WorkspaceSnapshotService } from '../datacoolie/workspace-snapshot.service.js';
import { DatacoolieIdsRepository } from './datacoolie-ids.repository.js';

interface Paging {
  page?: number | undefined;
  page_size?: number | undefined;
}

/** The reference server's pages: `page_size` default 50, `page` clamped into range, `total_pages` ≥ 1. */
function paginate<T>(items: readonly T[], { page = 1, page_size = DATACOOLIE_DEFAULT_PAGE_SIZE }: Paging) {
  const totalPages = Math.max(1, Math.ceil(items.length / page_size));
  const current = Math.min(Math.max(1, page), totalPages);
  return {
    data: items.slice((current - 1) * page_size, current * page_size),
    pagination: { page: current, page_size, total: items.length, total_pages: totalPages },
  };
}

/** A comma-separated stage filter: parts trimmed, empty ones dropped; none → no filter. */
function stagesOf(stage: string | undefined): Set<string> | null {
  const stages = (stage ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return stages.length > 0 ? new Set(stages) : null;
}

/**
 * DataCoolie's REST contract (reference §6.3–§6.4) over the workspace's current snapshot: every
 * listing and page is cut from one consistent read, and costs no database read while nothing changes.
 * Items carry the ids DataCoolie sees (ADR 0050); a single item is found by that id, else by its
 * registry id.
 */
@Injectable()
export class DatacoolieApiService {
  constructor(
    private readonly snapshots: WorkspaceSnapshotService,
    private readonly ids: DatacoolieIdsRepository,
  ) {}

  private async items(workspaceRef: string, user: AuthUser): Promise<SnapshotItems> {
    const workspace = await this.snapshots.workspace(workspaceRef, user);
    return this.snapshots.items(workspace.id);
  }

  /** The item whose DataCoolie id is `ref`, else the one whose registry id is (looked up then). */
  private async itemOf<T>(
    list: readonly T[],
    idOf: (item: T) => string,
    ref: string,
    registry: () => Promise<string | undefined>,
  ): Promise<T | undefined> {
    const found = list.find((item) => idOf(item) === ref);
    if (found) return found;
    const id = await registry();
    return id === undefined ? undefined : list.find((item) => idOf(item) === id);
  }

  async connections(
    ref: string,
    query: Paging & { name?: string | undefined; active_only?: boolean | undefined },
    user: AuthUser,
  ) {
    const { connections } = await this.items(ref, user);
    return paginate(
      connections.filter(
        (c) => (query.name === undefined || c.name === query.name) && (!query.active_only || c.is_active),
      ),
      query,
    );
  }

  async connection(ref: string, connectionId: string, user: AuthUser): Promise<DataCoolieConnection> {
    const workspace = await this.snapshots.workspace(ref, user);
    const { connections } = await this.snapshots.items(workspace.id);
    const found = await this.itemOf(
      connections,
      (c) => c.connection_id,
      connectionId,
      () => this.ids.connectionOf(workspace.id, connectionId),
    );
    if (!found) throw new AppError('CONNECTION_PROFILE_NOT_FOUND');
    return found;
  }

  async dataflows(
    ref: string,
    query: Paging & { stage?: string | undefined; active_only?: boolean | undefined },
    user: AuthUser,
  ) {
    const items = await this.items(ref, user);
    const stages = stagesOf(query.stage);
    const selected = items.dataflows.filter(
      (d) =>
        (!query.active_only || d.is_active) && (stages === null || (d.stage !== null && stages.has(d.stage))),
    );
    const page = paginate(selected, query);
    const connections = new Map(items.connections.map((c) => [c.connection_id, c]));
    return { ...page, data: page.data.map((d) => expand(d, connections)) };
  }

  async dataflow(ref: string, dataflowId: string, user: AuthUser): Promise<DataCoolieDataflow> {
    const workspace = await this.snapshots.workspace(ref, user);
    const items = await this.snapshots.items(workspace.id);
    const found = await this.itemOf(
      items.dataflows,
      (d) => d.dataflow_id,
      dataflowId,
      () => this.ids.dataflowOf(workspace.id, dataflowId),
    );
    if (!found) throw new AppError('DATAFLOW_NOT_FOUND');
    return expand(found, new Map(items.connections.map((c) => [c.connection_id, c])));
  }

  async schemaHints(
    ref: string,
    query: Paging & {
      connection_id?: string | undefined;
      table_name?: string | undefined;
      schema_name?: string | undefined;
      active_only?: boolean | undefined;
    },
    user: AuthUser,
  ) {
    const { schema_hints: groups, hint_fields: fields } = await this.items(ref, user);
    const table = query.table_name === undefined ? undefined : casefold(query.table_name.trim());
    const schema = query.schema_name === undefined ? undefined : casefold(query.schema_name.trim());
    const rows: DataCoolieSchemaHintRow[] = [];
    for (const group of groups) {
      if (query.connection_id !== undefined && group.connection_id !== query.connection_id) continue;
      if (table !== undefined && casefold(group.table_name) !== table) continue;
      if (schema !== undefined && (group.schema_name === null || casefold(group.schema_name) !== schema))
        continue;
      for (const tuple of group.hints) {
        const hint = Object.fromEntries(fields.map((field, i) => [field, tuple[i]])) as Omit<
          DataCoolieSchemaHintRow,
          'connection_id' | 'schema_name' | 'table_name'
        >;
        if (query.active_only && !hint.is_active) continue;
        // As written: a null ordinal position stays null (DataCoolie sorts it last; 0 would sort it first).
        rows.push({
          connection_id: group.connection_id,
          schema_name: group.schema_name,
          table_name: group.table_name,
          ...hint,
        });
      }
    }
    return paginate(rows, query);
  }
}

/** A snapshot dataflow with its connections expanded (the API shape DataCoolie's client reads). */
function expand(
  dataflow: DataCoolieSnapshotDataflow,
  connections: ReadonlyMap<string, DataCoolieConnection>,
): DataCoolieDataflow {
  const { connection_id: sourceId, ...source } = dataflow.source;
  const { connection_id: destinationId, ...destination } = dataflow.destination;
  return {
    ...dataflow,
    source: { ...source, connection: connections.get(sourceId)! },
    destination: { ...destination, connection: connections.get(destinationId)! },
  };
}
