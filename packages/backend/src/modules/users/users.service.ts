import type { CreateUser, ListQuery, Page, UpdateMe, UpdateUser, User } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import { PasswordHasher } from '../../common/auth/password-hasher.js';
import { TokenStateCache } from '../../common/auth/token-state-cache.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import type { UserEntity } from './user.entity.js';
import { toUser } from './user.mapper.js';
import { UsersRepository } from './users.repository.js';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly tx: Transactions,
    private readonly tokenState: TokenStateCache,
  ) {}

  async list(query: ListQuery): Promise<Page<User>> {
    return mapPage(await this.users.crud.findPage(query), toUser);
  }

  get(id: string): Promise<User> {
    return this.users.crud.getActivePrepared(id).then(toUser);
  }

  async create(input: CreateUser, actor: AuthUser): Promise<User> {
    const { password, ...rest } = input;
    const hashed_password = await this.hasher.hash(password);
    return this.tx.run(async (m) =>
      toUser(await this.users.crud.insert({ ...rest, hashed_password }, actor.id, m)),
    );
  }

  /** Superuser edit. A password reset or a deactivation ends the user's sessions. */
  async update(id: string, input: UpdateUser, ifMatch: number | undefined, actor: AuthUser): Promise<User> {
    const { changes, version } = splitUpdate(input, ifMatch);
    const { password, ...rest } = changes;
    const values: Partial<UserEntity> = { ...rest };
    if (password !== undefined) values.hashed_password = await this.hasher.hash(password);
    const endSessions = password !== undefined || rest.is_active === false;
    const mayRemoveSuperuser = rest.is_active === false || rest.is_superuser === false;
    const user = await this.tx.run(async (m) => {
      // Taken before the update: the count below then sees every demotion committed before this one.
      if (mayRemoveSuperuser) await this.users.lockSuperusers(m);
      const row = await this.users.crud.update(id, values, version, actor.id, m);
      // Nobody could administer users any more, and a restart would not recover (the bootstrap never
      // changes an existing account): refused, and the update rolls back with the transaction.
      if (mayRemoveSuperuser && (await this.users.countActiveSuperusers(m)) === 0) {
        throw new AppError('LAST_SUPERUSER');
      }
      if (endSessions) await this.users.endSessions(id, m);
      return toUser(row);
    });
    // Answered once every replica knows the new is_active / is_superuser / token_version (ADR 0023).
    if (endSessions || rest.is_active !== undefined || rest.is_superuser !== undefined)
      await this.tokenState.propagated();
    return user;
  }

  /**
   * A user's own edit. Changing the password needs the current one and ends every session of the user,
   * the caller's included: its access and refresh tokens are revoked too, so it logs in again with the
   * new password.
   */
  async updateMe(input: UpdateMe, ifMatch: number | undefined, actor: AuthUser): Promise<User> {
    const current = await this.users.crud.getActive(actor.id);
    const { row_version, current_password, password, ...rest } = input;
    const version = row_version ?? ifMatch ?? current.row_version;
    const values: Partial<UserEntity> = { ...rest };
    if (password !== undefined) {
      if (!(await this.hasher.verify(current_password ?? '', current.hashed_password))) {
        throw new AppError('INVALID_CURRENT_PASSWORD');
      }
      values.hashed_password = await this.hasher.hash(password);
    }
    const user = await this.tx.run(async (m) => {
      const row = await this.users.crud.update(actor.id, values, version, actor.id, m);
      if (password !== undefined) await this.users.endSessions(actor.id, m);
      return toUser(row);
    });
    if (password !== undefined) await this.tokenState.propagated();
    return user;
  }
}
