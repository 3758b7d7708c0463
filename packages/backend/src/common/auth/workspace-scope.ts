import type { FilterTerm, ListQuery } from '@aide/schemas';
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

/**
 * A list of workspace-owned rows as an API key may see it: only rows of the key's workspaces (`column`
 * names the row's workspace: `workspace_id`, or `id` for workspaces themselves). A filter on that
 * column naming another workspace is 403, as reading one of its rows is. Tokens list everything.
 */
export function scopeListToWorkspaces(
  query: ListQuery,
  user: AuthUser | undefined,
  column: 'workspace_id' | 'id' = 'workspace_id',
): ListQuery {
  const scope = user?.workspace_ids;
  if (!scope) return query;
  for (const filter of query.filters) {
    if (filter.field !== column) continue;
    for (const value of [filter.value].flat()) assertWorkspaceInScope(user, String(value));
  }
  const inScope: FilterTerm = { field: column, op: 'in', value: [...scope] };
  return { ...query, filters: [...query.filters, inScope] };
}
