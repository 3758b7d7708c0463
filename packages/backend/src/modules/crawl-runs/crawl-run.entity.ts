import type { CrawlStatus } from '@aide/schemas';
import { Column, Entity } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

@Entity('crawl_runs')
export class CrawlRunEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  system_id: string;

  @Column({ type: 'varchar', length: 20 })
  status: CrawlStatus;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  started_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  finished_at: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  config: Record<string, unknown>;

  @Column({ type: 'jsonb', nullable: true })
  summary: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  diff_payload: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  error_message: string | null;
}
