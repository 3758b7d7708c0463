import type { Workspace } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { WorkspaceEntity } from './workspace.entity.js';

export function toWorkspace(e: WorkspaceEntity): Workspace {
  return withSoftDelete<Workspace>(e, { code: e.code, name: e.name, description: e.description });
}
