import type { CompatibilityLevel } from '@aide/schemas';
import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { COMPATIBILITY_LEVELS_SQL } from '../../common/crud/compatibility-levels-sql.js';

/**
 * The registry's own settings: one row (id 1). Read on each publish, never cached in process: the
 * replicas share the database, so a change applies to every replica at once (ADR 0048).
 */
@Entity('registry_settings')
@Check('ck_registry_settings_single_row', 'id = 1')
@Check('ck_registry_settings_compatibility', `compatibility IN ${COMPATIBILITY_LEVELS_SQL}`)
export class RegistrySettingsEntity {
  @PrimaryColumn({ type: 'smallint', default: 1, primaryKeyConstraintName: 'pk_registry_settings' })
  id: number;

  /** The default level of every dataset whose own level and system default are unset. */
  @Column({ type: 'varchar', length: 30, default: 'NONE' })
  compatibility: CompatibilityLevel;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;

  @Column({ type: 'uuid', nullable: true })
  updated_by: string | null;

  @Column({ type: 'integer', default: 1 })
  row_version: number;
}
