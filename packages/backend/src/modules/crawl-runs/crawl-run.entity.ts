import type { CrawlStatus } from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { SystemEntity } from '../systems/system.entity.js';

// ix_crawl_runs_system_started orders started_at DESC in the migration (TypeORM cannot say DESC).
@AuditedTable('crawl_runs')
@Index('ix_crawl_runs_system_started', ['system_id', 'started_at'])
@Check('crawl_runs_status_check', "status IN ('running', 'completed', 'failed')")
@Check('ck_crawl_runs_finished', 'finished_at IS NULL OR finished_at >= started_at')
export class CrawlRunEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => SystemEntity, { name: 'fk_crawl_runs_system' })
  system_id: string;

  @Column({ type: 'varchar', length: 20 })
  status: CrawlStatus;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  started_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  finished_at: Date | null;

  @Column({ type: 'jsonb', default: {} })
  config: Record<string, unknown>;

  @Column({ type: 'jsonb', nullable: true })
  summary: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  diff_payload: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  error_message: string | null;
}
