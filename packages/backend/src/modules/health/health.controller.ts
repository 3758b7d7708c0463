import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Public } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';

@Controller('health')
@Public()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  /** The process is up. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The process can serve: the database answers. */
  @Get('ready')
  async ready(): Promise<{ status: 'ok'; database: 'ok' }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable.');
    }
    return { status: 'ok', database: 'ok' };
  }
}
