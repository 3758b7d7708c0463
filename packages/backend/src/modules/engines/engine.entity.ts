import type { EngineKind, EngineRole } from '@aide/schemas';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';
import type { WithKindRow } from '../../common/crud/polymorphic.js';

/** The parent row of every engine; kind-specific columns live in one table per kind (AIDE v2 ADR-020). */
@AuditedTable('engines')
@Index('uq_engines_code_active', ['code'], { unique: true, where: 'deleted_at IS NULL' })
@Index('ix_engines_kind', ['kind'])
@Index('ix_engines_role', ['role'])
@Check('ck_engines_kind', `kind IN ('debezium', 'ogg', 'spark', 'impala')`)
@Check('ck_engines_role', `role IN ('cdc', 'compute')`)
export class EngineEntity extends SoftDeletableEntity {
  @Column({ type: 'varchar', length: 255 })
  code: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'varchar', length: 64 })
  kind: EngineKind;

  @Column({ type: 'varchar', length: 16 })
  role: EngineRole;

  @Column({ type: 'varchar', length: 64 })
  version: string;
}

@Entity('engine_debezium')
export class EngineDebeziumEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => EngineEntity, { name: 'fk_engine_debezium_engine', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'jsonb' }) envelope_template: Record<string, unknown>;
  @Column({ type: 'jsonb', nullable: true }) topic_routing: Record<string, unknown> | null;
}

@Entity('engine_ogg')
export class EngineOggEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => EngineEntity, { name: 'fk_engine_ogg_engine', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'jsonb' }) envelope_template: Record<string, unknown>;
  @Column({ type: 'jsonb', nullable: true }) topic_routing: Record<string, unknown> | null;
}

@Entity('engine_spark')
export class EngineSparkEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => EngineEntity, { name: 'fk_engine_spark_engine', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'jsonb', nullable: true }) runtime_opts: Record<string, unknown> | null;
}

@Entity('engine_impala')
export class EngineImpalaEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey(() => EngineEntity, { name: 'fk_engine_impala_engine', onDelete: 'CASCADE' })
  id: string;

  @Column({ type: 'jsonb', nullable: true }) runtime_opts: Record<string, unknown> | null;
}

/** The kind table of each engine kind. */
export const ENGINE_KIND_ENTITIES = {
  debezium: EngineDebeziumEntity,
  ogg: EngineOggEntity,
  spark: EngineSparkEntity,
  impala: EngineImpalaEntity,
} as const;

/** An engine with its kind table's row as `details` (joined by the repository), typed by its kind. */
export type EngineRow = WithKindRow<EngineEntity, typeof ENGINE_KIND_ENTITIES>;
