import { AppError } from '../errors/app-error.js';
import type { AuthUser } from './current-user.js';

/**
 * An API key acts within the workspaces it is scoped to: naming another workspace is 403, never a
 * 404 or an empty answer (DataCoolie tells auth failures from missing data by status). Tokens are not
 * workspace-scoped.
 */
export function assertWorkspaceInScope(user: AuthUser | undefined, workspaceId: string): void {
  if (user?.workspace_ids && !user.workspace_ids.includes(workspaceId)) {
    throw new AppError('FORBIDDEN', 'The API key is not scoped to this workspace.', {
      workspace_id: workspaceId,
    });
  }
}
