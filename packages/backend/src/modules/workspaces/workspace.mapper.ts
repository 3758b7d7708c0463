import type { Workspace } from '@aide/schemas';
import { softDeleteFields } from '../../common/crud/audit-mapper.js';
import type { WorkspaceEntity } from './workspace.entity.js';

export function toWorkspace(e: WorkspaceEntity): Workspace {
  return { ...softDeleteFields(e), code: e.code, name: e.name, description: e.description };
}
