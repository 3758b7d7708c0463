import type { ListQuery } from '@aide/schemas';
import type { AuthUser } from '../auth/current-user.js';
import { AppError } from '../errors/app-error.js';

/** `include_deleted=true` shows soft-deleted rows, to superusers only. */
export function assertIncludeDeletedAllowed(query: ListQuery, user: AuthUser): void {
  if (query.include_deleted && !user.is_superuser) {
    throw new AppError('FORBIDDEN', 'Superuser privileges are required for include_deleted.');
  }
}
