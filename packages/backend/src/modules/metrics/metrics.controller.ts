import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';
import type { AppMetrics } from './metrics.js';

export const APP_METRICS = Symbol('APP_METRICS');

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Prometheus metrics. Scrapers cannot log in and refresh, so the route takes a static bearer token
 * (`AIDE_METRICS_TOKEN`); without one configured the route does not exist.
 */
@Controller('metrics')
@Public()
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: ResolvedConfig,
    @Inject(APP_METRICS) private readonly metrics: AppMetrics,
  ) {}

  @Get()
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const token = this.config.metricsToken;
    if (!token) throw new AppError('NOT_FOUND', 'Metrics are disabled: set AIDE_METRICS_TOKEN.');
    const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!presented || !sameSecret(presented, token)) throw new AppError('UNAUTHORIZED');
    void reply.type(this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
