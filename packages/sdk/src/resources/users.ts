import { contract, type CreateUser, type UpdateMe, type UpdateUser, type User } from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import {
  CollectionResource,
  ifMatchHeader,
  type Updatable,
  type UpdateOptions,
  type WithRowVersion,
} from './crud.js';

/**
 * `/api/v1/users`: superusers list, read, create and edit users; `me()`/`updateMe()` are every user's
 * own account. There is no delete: deactivate a user with `update(id, { is_active: false, row_version })`.
 */
export class UsersResource
  extends CollectionResource<User, CreateUser>
  implements Updatable<User, UpdateUser>
{
  /**
   * `PATCH /users/{id}` (superusers) — edit any user. A new password or `is_active: false` ends the
   * user's sessions.
   */
  update(id: string, body: WithRowVersion<UpdateUser>, options?: UpdateOptions): Promise<User>;
  update(id: string, body: UpdateUser, options: UpdateOptions & { ifMatch: number }): Promise<User>;
  update(id: string, body: UpdateUser, options?: UpdateOptions): Promise<User> {
    const { ifMatch, ...requestOptions } = options ?? {};
    return this.api.invoke(contract.users.update!, {
      params: { id },
      body,
      headers: ifMatchHeader(ifMatch),
      options: requestOptions,
    });
  }

  /** `GET /users/me` — the authenticated user. */
  me(options?: RequestOptions): Promise<User> {
    return this.api.invoke(contract.users.me, { options });
  }

  /**
   * `PATCH /users/me` — edit your own name or password (a new password needs `current_password`).
   * Changing the password ends every session of the user, this client's included: the client then
   * logs in again with the new password on its next call.
   */
  async updateMe(body: UpdateMe, options?: RequestOptions): Promise<User> {
    const user = await this.api.invoke(contract.users.updateMe, { body, options });
    if (body.password !== undefined) this.api.tokens.passwordChanged(body.password);
    return user;
  }
}
