import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Public } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../database/connection-errors.js';

@Controller('health')
@Public()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  /** The process is up. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * The process can serve: the database answers. While it does not, 503 DATABASE_UNAVAILABLE (a load
   * balancer takes the replica out); the pool reconnects by itself and readiness comes back.
   */
  @Get('ready')
  async ready(): Promise<{ status: 'ok'; database: 'ok' }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new AppError('DATABASE_UNAVAILABLE', 'The database is not reachable.', undefined, {
        'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
      });
    }
    return { status: 'ok', database: 'ok' };
  }
}
