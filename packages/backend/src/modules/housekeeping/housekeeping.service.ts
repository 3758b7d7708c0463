import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IDEMPOTENCY_TTL_HOURS } from '../../common/idempotency/idempotency.repository.js';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';

export interface HousekeepingReport {
  throttle: number;
  idempotency_keys: number;
  refresh_tokens: number;
  /** Raw OpenLineage run events past `AIDE_OPENLINEAGE_EVENT_RETENTION_DAYS` (0 when unset: kept for ever). */
  openlineage_run_events: number;
}

const EVERY_MS = 10 * 60_000;
// Expired or revoked refresh tokens are kept a while for re-use detection and audit.
const REFRESH_TOKEN_RETENTION_DAYS = 30;

/**
 * Deletes rows that only ever grow: throttle windows long past, idempotency keys past their TTL, refresh
 * tokens expired or revoked a month ago, OpenLineage runs' raw events past their retention (ADR 0053: the
 * runs, jobs and links they made stay). Idempotent, so every replica may run it.
 */
@Injectable()
export class Housekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Housekeeping.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: ResolvedConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.run().catch((error: unknown) => this.logger.warn(`housekeeping failed: ${String(error)}`));
    }, EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async run(): Promise<HousekeepingReport> {
    const deleted = async (sql: string, params: unknown[]): Promise<number> => {
      const [, count] = await this.dataSource.query<[unknown, number]>(sql, params);
      return count;
    };
    return {
      throttle: await deleted(
        'DELETE FROM auth_throttle WHERE window_started_at < now() - make_interval(secs => $1)',
        [this.config.loginWindowSeconds],
      ),
      idempotency_keys: await deleted(
        'DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)',
        [IDEMPOTENCY_TTL_HOURS],
      ),
      refresh_tokens: await deleted(
        `DELETE FROM refresh_tokens
         WHERE COALESCE(revoked_at, expires_at) < now() - make_interval(days => $1)`,
        [REFRESH_TOKEN_RETENTION_DAYS],
      ),
      openlineage_run_events:
        this.config.openLineageEventRetentionDays === undefined
          ? 0
          : await deleted(
              'DELETE FROM lineage_run_events WHERE received_at < now() - make_interval(days => $1)',
              [this.config.openLineageEventRetentionDays],
            ),
    };
  }
}
