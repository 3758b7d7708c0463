import type { LoggerService } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { pino, type Logger } from 'pino';
import type { AppConfig } from '../../config/config.js';
import { currentRequestId } from './request-context.js';

/** JSON logs by default, pretty on a TTY; every line written during a request carries its id. */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'aide-metastore' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'password', '*.password', 'refresh_token', '*.refresh_token'],
      censor: '[redacted]',
    },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { request_id: requestId } : {};
    },
    ...(config.logFormat === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } }
      : {}),
  });
}

/** Nest's own log lines (bootstrap, route mapping) through the same pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

/** One line per request, when it completes (Fastify's default also logs its arrival). */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request completed');
  }
}
