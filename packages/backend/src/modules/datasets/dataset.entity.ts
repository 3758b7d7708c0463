import type { CompatibilityLevel, DatasetKind } from '@aide/schemas';
import { COMPATIBILITY_LEVELS_SQL } from '../../common/crud/compatibility-levels-sql.js';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';
import type { WithKindRow } from '../../common/crud/polymorphic.js';
import { SystemFlavorEntity } from '../system-flavors/system-flavor.entity.js';
import { SystemEntity } from '../systems/system.entity.js';

/** The parent row of every dataset; kind-specific columns live in one table per kind (AIDE v2 ADR-008). */
@AuditedTable('datasets')
@Index('uq_datasets_system_object_active', ['system_id', 'object_name'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
@Index('ix_datasets_kind', ['kind'])
@Index('ix_datasets_flavor', ['flavor_id'])
@Index('ix_datasets_layer', ['layer'])
@Index('ix_datasets_system_id_active', ['system_id', 'id'], { where: 'deleted_at IS NULL' })
// The list's sort indexes (ADR 0024); the migration orders created_at DESC.
@Index('ix_datasets_object_name_active', ['object_name', 'id'], { where: 'deleted_at IS NULL' })
@Index('ix_datasets_created_active', ['created_at', 'id'], { where: 'deleted_at IS NULL' })
@Index('ix_datasets_system_created_active', ['system_id', 'created_at', 'id'], {
  where: 'deleted_at IS NULL',
})
// Migration 1766230000000: kind, layer, newest-changed first (updated_at DESC), within a system and over all.
@Index('ix_datasets_system_kind_active', ['system_id', 'kind', 'id'], { where: 'deleted_at IS NULL' })
@Index('ix_datasets_system_layer_active', ['system_id', 'layer', 'id'], { where: 'deleted_at IS NULL' })
@Index('ix_datasets_system_updated_active', ['system_id', 'updated_at', 'id'], {
  where: 'deleted_at IS NULL',
})
@Index('ix_datasets_kind_active', ['kind', 'id'], { where: 'deleted_at IS NULL' })
@Index('ix_datasets_layer_active', ['layer', 'id'], { where: 'deleted_at IS NULL' })
@Index('ix_datasets_updated_active', ['updated_at', 'id'], { where: 'deleted_at IS NULL' })
@Check('ck_datasets_compatibility', `compatibility IN ${COMPATIBILITY_LEVELS_SQL}`)
@Check('datasets_kind_check', "kind IN ('rdbms', 'kafka', 'storage', 'sftp', 'hive')")
export class DatasetEntity extends SoftDeletableEntity {
  /** Search text (ADR 0018), kept by a trigger from the names and note; never read or written here. */
  @Column({ type: 'tsvector', nullable: true, select: false, insert: false, update: false })
  search_vector: string | null;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SystemEntity, { name: 'fk_datasets_system' })
  system_id: string;

  /** The dataset's own flavor, of its system's kind; null = the system's flavor (ADR 0045). */
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => SystemFlavorEntity, { name: 'fk_datasets_flavor' })
  flavor_id: string | null;

  /** The dataset's own compatibility level (ADR 0048); null = its system's default, else the registry's. */
  @Column({ type: 'varchar', length: 30, nullable: true })
  compatibility: CompatibilityLevel | null;

  @Column({ type: 'text' })
  object_name: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  layer: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  pattern_code: string | null;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 20 })
  kind: DatasetKind;
}

@Entity('dataset_rdbms')
// Foreign keys name their target table by name (ADR 0024 migration: a publish finds it by index).
@Index('ix_dataset_rdbms_table_name', ['table_name'])
export class DatasetRdbmsEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_rdbms_dataset', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'text', nullable: true }) catalog_name: string | null;
  @Column({ type: 'text' }) schema_name: string;
  @Column({ type: 'text' }) table_name: string;
  @Column({ type: 'boolean', default: false }) is_view: boolean;
  @Column({ type: 'varchar', length: 255, array: true, nullable: true }) distribution: string[] | null;
  @Column({ type: 'varchar', length: 255, array: true, nullable: true }) pk_columns: string[] | null;
  @Column({ type: 'jsonb', nullable: true }) uq_constraints: Record<string, unknown> | null;
}

@Entity('dataset_kafka')
export class DatasetKafkaEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_kafka_dataset', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'text' }) topic: string;
  @Column({ type: 'varchar', length: 255 }) format: string;
  // Null when unknown (a schema registry cannot know them, ADR 0045).
  @Column({ type: 'integer', nullable: true }) partitions: number | null;
  // bigint arrives from pg as a string; the mapper turns it back into a number.
  @Column({ type: 'bigint', nullable: true }) retention_ms: string | null;
  @Column({ type: 'varchar', length: 255, array: true }) key_columns: string[];
}

@Entity('dataset_storage')
export class DatasetStorageEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_storage_dataset', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'text' }) path: string;
  @Column({ type: 'varchar', length: 255 }) file_format: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) compression: string | null;
  @Column({ type: 'varchar', length: 255, array: true, nullable: true }) partition_by: string[] | null;
}

@Entity('dataset_sftp')
export class DatasetSftpEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_sftp_dataset', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'text' }) path: string;
  @Column({ type: 'varchar', length: 255 }) file_format: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) compression: string | null;
  @Column({ type: 'text', nullable: true }) archive: string | null;
}

@Entity('dataset_hive')
export class DatasetHiveEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_hive_dataset', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'text' }) catalog_uri: string;
  @Column({ type: 'text' }) db_name: string;
  @Column({ type: 'text' }) table_name: string;
  @Column({ type: 'boolean', default: false }) is_external: boolean;
  @Column({ type: 'varchar', length: 255 }) file_format: string;
  @Column({ type: 'text', nullable: true }) location: string | null;
  @Column({ type: 'varchar', length: 255, array: true, nullable: true }) partition_cols: string[] | null;
  @Column({ type: 'text', nullable: true }) serde: string | null;
  @Column({ type: 'jsonb', nullable: true }) tblproperties: Record<string, unknown> | null;
  @Column({ type: 'varchar', length: 255, array: true, nullable: true }) bkey_columns: string[] | null;
}

/** The kind table of each dataset kind. */
export const DATASET_KIND_ENTITIES = {
  rdbms: DatasetRdbmsEntity,
  kafka: DatasetKafkaEntity,
  storage: DatasetStorageEntity,
  sftp: DatasetSftpEntity,
  hive: DatasetHiveEntity,
} as const;

/** A dataset with its kind table's row as `details` (joined by the repository), typed by its kind. */
export type DatasetRow = WithKindRow<DatasetEntity, typeof DATASET_KIND_ENTITIES>;
