import { createRequire } from 'node:module';
import type { LoggerService } from '@nestjs/common';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Level,
  type LogFn,
  pino,
  type Logger,
} from 'pino';
import type { AppConfig } from '../../config/config.js';

/**
 * JSON logs by default, pretty on a TTY. Request handling logs through Fastify's per-request child
 * logger, so those lines carry `request_id` (an AsyncLocalStorage context would cost ~20% throughput on
 * Node 20 for the same result).
 *
 * Pretty lines come from `pino-pretty`, a development dependency: a production install (the image) has
 * none, and then logs JSON with one warning line instead of failing to start.
 */
export function createLogger(
  config: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  options: { prettyInstalled?: () => boolean; destination?: DestinationStream } = {},
): Logger {
  const pretty = config.logFormat === 'pretty' && (options.prettyInstalled ?? prettyInstalled)();
  const logger = pino(
    {
      level: config.logLevel,
      base: { service: 'aide-metastore' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['req.headers.authorization', 'password', '*.password', 'refresh_token', '*.refresh_token'],
        censor: '[redacted]',
      },
      ...(pretty
        ? {
            transport: {
              target: 'pino-pretty',
              options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' },
            },
          }
        : {}),
    },
    ...(pretty || options.destination === undefined ? [] : [options.destination]),
  );
  if (config.logFormat === 'pretty' && !pretty) {
    logger.warn(
      'pretty logs need the pino-pretty package, which is not installed (a development dependency): logging JSON',
    );
  }
  return logger;
}

function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
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
  constructor() {
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // request.log is pino's child or lazyChildLogger's: both tell their level.
    const log = request.log as unknown as Pick<Logger, 'isLevelEnabled'>;
    if (!log.isLevelEnabled(error ? 'error' : 'info')) return;
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

/**
 * Fastify makes a child logger for every request (binding `request_id`), and pino's child() serialises
 * and redacts its bindings at once: a few µs and a dozen objects on every request, for lines that are
 * mostly never written (level warn, or a request that logs nothing but its completion at info). This
 * child is made on the first line written at an enabled level. Set with `setChildLoggerFactory`.
 */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent as Logger, bindings, options) as unknown as FastifyBaseLogger;
}

class LazyChildLogger {
  private real: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private logger(): Logger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return (this.real ?? this.parent).level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.real ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger().child(bindings, options);
  }

  silent(): void {}
}

const LEVELS: Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
for (const level of LEVELS) {
  const write = function (this: LazyChildLogger, ...args: Parameters<LogFn>) {
    if (this.isLevelEnabled(level)) (this as unknown as { logger(): Logger }).logger()[level](...args);
  };
  Object.defineProperty(LazyChildLogger.prototype, level, { value: write });
}
