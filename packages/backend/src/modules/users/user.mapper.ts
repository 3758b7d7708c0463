import type { User } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { UserEntity } from './user.entity.js';

/** Never exposes the password hash or the token version. */
export function toUser(e: UserEntity): User {
  return withAudit<User>(e, {
    email: e.email,
    full_name: e.full_name,
    is_active: e.is_active,
    is_superuser: e.is_superuser,
    user_type: e.user_type,
  });
}
