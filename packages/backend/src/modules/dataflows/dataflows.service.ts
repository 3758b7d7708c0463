import type { CreateDataflow, Dataflow, ListQuery, Page, UpdateDataflow } from '@aide/schemas';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { assertWorkspaceInScope, scopeListToWorkspaces } from '../../common/auth/workspace-scope.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DataflowChecker, type DataflowDraft } from '../datacoolie/dataflow-checker.js';
import { WorkspacesLookup } from '../workspaces/workspaces.lookup.js';
import type { DataflowEntity } from './dataflow.entity.js';
import { DataflowLineage } from '../dataset-links/dataflow-lineage.js';
import { toDataflow } from './dataflow.mapper.js';
import { DataflowsRepository } from './dataflows.repository.js';

/** The id checks run under before a new dataflow has one (any usable id makes the same export). */
const PENDING_ID = '00000000-0000-4000-8000-000000000000';

// The checker reads the modes as DataCoolie's strings; the row keeps the contract's enums.
type DraftColumns = Omit<DataflowDraft, 'id'> & Pick<DataflowEntity, 'processing_mode' | 'load_type'>;

/** A create body with the defaults of the DataCoolie models (load type `append`, mode `batch`). */
function draftOf(input: Omit<CreateDataflow, 'note' | 'id'>): DraftColumns {
  return {
    workspace_id: input.workspace_id,
    name: input.name,
    description: input.description ?? null,
    stage: input.stage ?? null,
    group_number: input.group_number ?? null,
    execution_order: input.execution_order ?? null,
    processing_mode: input.processing_mode ?? 'batch',
    is_active: input.is_active ?? true,
    source_connection_id: input.source_connection_id,
    source_dataset_id: input.source_dataset_id ?? null,
    source_query: input.source_query ?? null,
    source_python_function: input.source_python_function ?? null,
    source_watermark_columns: input.source_watermark_columns ?? [],
    source_filter_expression: input.source_filter_expression ?? null,
    source_configure: input.source_configure ?? {},
    destination_connection_id: input.destination_connection_id,
    destination_dataset_id: input.destination_dataset_id,
    load_type: input.load_type ?? 'append',
    merge_keys: input.merge_keys ?? [],
    partition_columns: (input.partition_columns ?? []).map((p) => ({
      column: p.column,
      expression: p.expression ?? null,
    })),
    destination_configure: input.destination_configure ?? {},
    transform: input.transform ?? {},
    configure: input.configure ?? {},
    pinned_hint_schema_version_id: input.pinned_hint_schema_version_id ?? null,
  };
}

const SOURCE_COLUMNS = ['source_dataset_id', 'source_query', 'source_python_function'] as const;

/**
 * An update's source: naming a new dataset, query or function replaces what the source read before
 * (the other two are cleared unless the update gives them too).
 */
function mergedSource(current: DataflowEntity, changes: Omit<UpdateDataflow, 'row_version'>) {
  const given = SOURCE_COLUMNS.filter((c) => changes[c] !== undefined && changes[c] !== null);
  const merged: Pick<DraftColumns, (typeof SOURCE_COLUMNS)[number]> = {
    source_dataset_id: current.source_dataset_id,
    source_query: current.source_query,
    source_python_function: current.source_python_function,
  };
  for (const column of SOURCE_COLUMNS) {
    if (changes[column] !== undefined) merged[column] = changes[column];
    else if (given.length > 0) merged[column] = null;
  }
  return merged;
}

@Injectable()
export class DataflowsService implements CrudService<Dataflow, CreateDataflow, UpdateDataflow> {
  constructor(
    private readonly dataflows: DataflowsRepository,
    private readonly workspaces: WorkspacesLookup,
    private readonly checker: DataflowChecker,
    private readonly lineage: DataflowLineage,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery, actor: AuthUser): Promise<Page<Dataflow>> {
    return mapPage(await this.dataflows.crud.findPage(scopeListToWorkspaces(query, actor)), toDataflow);
  }

  async get(id: string, actor: AuthUser): Promise<Dataflow> {
    const row = await this.dataflows.crud.getActive(id);
    assertWorkspaceInScope(actor, row.workspace_id);
    return toDataflow(row);
  }

  /**
   * Every write checks the whole dataflow (reference §8.7, see DataflowChecker) and keeps its lineage
   * hop: the dataset link of its source and destination datasets.
   */
  private async prepare(id: string | null, draft: DraftColumns, actor: AuthUser, m: EntityManager) {
    const checked = await this.checker.check({ ...draft, id: id ?? PENDING_ID }, m);
    await this.checker.checkSourceKey(id, { ...draft, id: id ?? PENDING_ID }, checked, m);
    const link = draft.source_dataset_id
      ? await this.lineage.linkFor(draft.source_dataset_id, draft.destination_dataset_id, actor.id, m)
      : null;
    return { source_kind: checked.sourceKind, dataset_link_id: link };
  }

  create(input: CreateDataflow, actor: AuthUser): Promise<Dataflow> {
    return this.tx.run((m) => this.createIn(input, actor, m));
  }

  /** `create` in the caller's transaction (a DataCoolie import writes many in one). */
  async createIn(input: CreateDataflow, actor: AuthUser, m: EntityManager): Promise<Dataflow> {
    const { note, id, datacoolie_id, ...rest } = input;
    const draft = draftOf(rest);
    assertWorkspaceInScope(actor, draft.workspace_id);
    await this.workspaces.lockActive(draft.workspace_id, m);
    // A given id (a DataCoolie dataflow_id kept) must be new, deleted rows included.
    if (id !== undefined && (await this.dataflows.crud.findAny(id, m))) {
      throw new AppError('DATAFLOW_ALREADY_EXISTS', 'A dataflow with this id already exists.', { id });
    }
    const derived = await this.prepare(id ?? null, draft, actor, m);
    const rowId = id ?? randomUUID();
    const values = {
      ...draft,
      ...derived,
      note: note ?? null,
      id: rowId,
      datacoolie_id: datacoolie_id ?? rowId,
    };
    return toDataflow(await this.dataflows.crud.insert(values, actor.id, m));
  }

  update(id: string, input: UpdateDataflow, ifMatch: number | undefined, actor: AuthUser): Promise<Dataflow> {
    return this.tx.run((m) => this.updateIn(id, input, ifMatch, actor, m));
  }

  /** `update` in the caller's transaction. */
  async updateIn(
    id: string,
    input: UpdateDataflow,
    ifMatch: number | undefined,
    actor: AuthUser,
    m: EntityManager,
  ): Promise<Dataflow> {
    const { changes, version } = splitUpdate(input, ifMatch);
    {
      const current = await this.dataflows.crud.getActive(id, m, 'update');
      assertWorkspaceInScope(actor, current.workspace_id);
      const partition = changes.partition_columns?.map((p) => ({
        column: p.column,
        expression: p.expression ?? null,
      }));
      const draft: DraftColumns = {
        ...current,
        ...changes,
        ...mergedSource(current, changes),
        ...(partition ? { partition_columns: partition } : {}),
      } as DraftColumns;
      const derived = await this.prepare(id, draft, actor, m);
      const { workspace_id: _fixed, ...columns } = draft;
      const row = await this.dataflows.crud.update(
        id,
        { ...columns, ...derived, ...(changes.note !== undefined ? { note: changes.note } : {}) },
        version,
        actor.id,
        m,
      );
      return toDataflow(row);
    }
  }

  remove(id: string, actor: AuthUser): Promise<Dataflow> {
    return this.tx.run((m) => this.removeIn(id, actor, m));
  }

  /** `remove` in the caller's transaction. */
  async removeIn(id: string, actor: AuthUser, m: EntityManager): Promise<Dataflow> {
    assertWorkspaceInScope(actor, (await this.dataflows.crud.getActive(id, m, 'update')).workspace_id);
    return toDataflow(await this.dataflows.crud.softDelete(id, actor.id, m));
  }

  /** Restore checks the dataflow again: its profiles or datasets may be gone, its key taken. */
  restore(id: string, actor: AuthUser): Promise<Dataflow> {
    return this.tx.run(async (m) => {
      const row = await this.dataflows.crud.findAny(id, m);
      if (row) assertWorkspaceInScope(actor, row.workspace_id);
      if (row?.deleted_at) {
        await this.workspaces.lockActive(row.workspace_id, m);
        const derived = await this.prepare(id, row, actor, m);
        await this.dataflows.crud.repo(m).update({ id }, derived);
      }
      return toDataflow(await this.dataflows.crud.restore(id, actor.id, m));
    });
  }
}
