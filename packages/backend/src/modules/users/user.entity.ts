import { Check, Column, Index } from 'typeorm';
import type { UserType } from '@aide/schemas';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';

// uq_users_email is on lower(email), an expression TypeORM cannot declare or read: the migration owns it.
@AuditedTable('users')
@Index('ix_users_user_type', ['user_type'])
@Check('users_user_type_check', "user_type IN ('regular', 'technical')")
export class UserEntity extends AuditedEntity {
  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'varchar', length: 255 })
  hashed_password: string;

  @Column({ type: 'text', nullable: true })
  full_name: string | null;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'boolean', default: false })
  is_superuser: boolean;

  @Column({ type: 'varchar', length: 20, default: 'regular' })
  user_type: UserType;

  /** Bumped by a password change or a logout-all: access tokens carrying an older value are refused. */
  @Column({ type: 'integer', default: 1 })
  token_version: number;
}
