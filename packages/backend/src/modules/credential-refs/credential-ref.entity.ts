import { Column, Entity } from 'typeorm';
import { SoftDeletableEntity } from '../../common/crud/audited-entity.js';

@Entity('credential_refs')
export class CredentialRefEntity extends SoftDeletableEntity {
  @Column({ type: 'varchar', length: 255 })
  provider: string;

  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'integer', nullable: true })
  version: number | null;
}
