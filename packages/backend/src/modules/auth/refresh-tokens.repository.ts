import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { RefreshTokenEntity } from './refresh-token.entity.js';

// Users are never deleted (deactivated instead); a token hash collision is a 256-bit accident.
registerConstraintCodes({
  fk_refresh_tokens_user: 'USER_NOT_FOUND',
  uq_refresh_tokens_hash: 'REFRESH_TOKEN_INVALID',
});

@Injectable()
export class RefreshTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(RefreshTokenEntity);
  }

  async insert(
    values: Omit<RefreshTokenEntity, 'id' | 'created_at' | 'revoked_at' | 'replaced_by'>,
    manager: EntityManager,
  ): Promise<string> {
    const result = await this.repo(manager).insert(values);
    return (result.identifiers[0] as { id: string }).id;
  }

  /** Locks the token row for the rest of the transaction, so one token rotates once. */
  async findByHashForUpdate(hash: string, manager: EntityManager): Promise<RefreshTokenEntity | undefined> {
    return (
      (await this.repo(manager)
        .createQueryBuilder('t')
        .where('t.token_hash = :hash', { hash })
        .setLock('pessimistic_write')
        .getOne()) ?? undefined
    );
  }

  /** Revokes a token on rotation, naming its successor. */
  async markRotated(id: string, replacedBy: string, manager: EntityManager): Promise<void> {
    await manager.query(
      'UPDATE refresh_tokens SET revoked_at = now(), replaced_by = $2 WHERE id = $1 AND revoked_at IS NULL',
      [id, replacedBy],
    );
  }

  async revokeByHash(hash: string): Promise<void> {
    await this.dataSource.query(
      'UPDATE refresh_tokens SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
  }
}
