import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { UserEntity } from './user.entity.js';

registerConstraintCodes({ uq_users_email: 'USER_ALREADY_EXISTS' });

@Injectable()
export class UsersRepository {
  readonly crud: CrudRepository<UserEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: UserEntity,
      notFound: 'USER_NOT_FOUND',
      softDelete: false,
    });
  }

  async findByEmail(email: string, manager?: EntityManager): Promise<UserEntity | undefined> {
    return (
      (await this.crud
        .repo(manager)
        .createQueryBuilder('u')
        .where('lower(u.email) = lower(:email)', { email })
        .getOne()) ?? undefined
    );
  }

  /** The e-mail address of each given user (one query); unknown ids are absent. */
  async emailsOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; email: string }[] = await this.crud
      .repo()
      .query('SELECT id, email FROM users WHERE id = ANY($1::uuid[])', [[...ids]]);
    return new Map(rows.map((r) => [r.id, r.email]));
  }

  /**
   * Serialises changes that can remove an active superuser until the transaction ends, so two
   * superusers demoting each other concurrently cannot both pass the "another one is left" check.
   */
  async lockSuperusers(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('users:superusers', 0))`);
  }

  async countActiveSuperusers(manager: EntityManager): Promise<number> {
    const rows: { n: number }[] = await manager.query(
      'SELECT count(*)::int AS n FROM users WHERE is_superuser AND is_active',
    );
    return rows[0]?.n ?? 0;
  }

  /** Invalidates every access token already issued to the user. */
  async bumpTokenVersion(userId: string, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE users SET token_version = token_version + 1 WHERE id = $1', [userId]);
  }

  /**
   * Ends every session of the user: its live refresh tokens (the auth module's `refresh_tokens` rows,
   * which reference the user) are revoked and its access tokens invalidated.
   */
  async endSessions(userId: string, manager: EntityManager): Promise<void> {
    await manager.query(
      'UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
      [userId],
    );
    await this.bumpTokenVersion(userId, manager);
  }
}
