import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Lock } from '../../common/crud/crud-repository.js';
import { ParentLookup } from '../../common/crud/parent-lookup.js';
import type { WorkspaceEntity } from './workspace.entity.js';
import { WorkspacesRepository } from './workspaces.repository.js';

/** What other modules may ask about workspaces (ADR 0026); exported by `WorkspacesModule`. */
@Injectable()
export class WorkspacesLookup extends ParentLookup<WorkspaceEntity> {
  constructor(private readonly workspaces: WorkspacesRepository) {
    super(workspaces.crud);
  }

  /** The active workspace named by its id or its code (DataCoolie's `workspace_id`), or undefined. */
  findActiveByRef(ref: string, m?: EntityManager, lock?: Lock): Promise<WorkspaceEntity | undefined> {
    return this.workspaces.findActiveByRef(ref, m, lock);
  }
}
