import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity.js';

/** A refresh token, stored as the SHA-256 of the random value handed to the client. */
@Entity('refresh_tokens')
@Index('uq_refresh_tokens_hash', ['token_hash'], { unique: true })
@Index('ix_refresh_tokens_user', ['user_id'], { where: 'revoked_at IS NULL' })
export class RefreshTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 64 })
  token_hash: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => UserEntity, { name: 'fk_refresh_tokens_user', onDelete: 'CASCADE' })
  user_id: string;

  @Column({ type: 'timestamptz' })
  expires_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'varchar', length: 255, nullable: true })
  client_info: string | null;

  /** The token that replaced this one on rotation. */
  @Column({ type: 'uuid', nullable: true })
  replaced_by: string | null;
}
