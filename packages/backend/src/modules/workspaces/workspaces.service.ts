import type { CreateWorkspace, ListQuery, Page, UpdateWorkspace, Workspace } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { assertWorkspaceInScope, scopeListToWorkspaces } from '../../common/auth/workspace-scope.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { toWorkspace } from './workspace.mapper.js';
import { WorkspacesRepository } from './workspaces.repository.js';

@Injectable()
export class WorkspacesService implements CrudService<Workspace, CreateWorkspace, UpdateWorkspace> {
  constructor(
    private readonly workspaces: WorkspacesRepository,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery, actor: AuthUser): Promise<Page<Workspace>> {
    return mapPage(
      await this.workspaces.crud.findPage(scopeListToWorkspaces(query, actor, 'id')),
      toWorkspace,
    );
  }

  async get(id: string, actor: AuthUser): Promise<Workspace> {
    assertWorkspaceInScope(actor, id);
    return toWorkspace(await this.workspaces.crud.getActive(id));
  }

  /** An API key acts within its workspaces: it cannot make new ones. */
  create(input: CreateWorkspace, actor: AuthUser): Promise<Workspace> {
    return this.tx.run((m) => this.createIn(input, actor, m));
  }

  /** `create` in the caller's transaction (a DataCoolie import creates the workspace it names). */
  async createIn(input: CreateWorkspace, actor: AuthUser, m: EntityManager): Promise<Workspace> {
    if (actor.workspace_ids) throw new AppError('FORBIDDEN', 'An API key cannot create workspaces.');
    return toWorkspace(await this.workspaces.crud.insert(input, actor.id, m));
  }

  update(
    id: string,
    input: UpdateWorkspace,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<Workspace> {
    const { changes, version } = splitUpdate(input, ifMatch);
    assertWorkspaceInScope(actor, id);
    return this.tx.run(async (m) =>
      toWorkspace(await this.workspaces.crud.update(id, changes, version, actor.id, m)),
    );
  }

  /** A workspace with active profiles or dataflows is in use (their rows name it). */
  remove(id: string, actor: AuthUser): Promise<Workspace> {
    assertWorkspaceInScope(actor, id);
    return this.tx.run(async (m) => {
      await this.workspaces.crud.getActive(id, m, 'update');
      if (await this.workspaces.hasActiveContent(id, m)) throw new AppError('HAS_DEPENDENT_ENTITIES');
      return toWorkspace(await this.workspaces.crud.softDelete(id, actor.id, m));
    });
  }

  restore(id: string, actor: AuthUser): Promise<Workspace> {
    assertWorkspaceInScope(actor, id);
    return this.tx.run(async (m) => toWorkspace(await this.workspaces.crud.restore(id, actor.id, m)));
  }
}
