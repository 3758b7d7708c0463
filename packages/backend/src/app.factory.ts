import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { EtagInterceptor } from './common/http/etag.interceptor.js';
import { NestPinoLogger, RequestLogController } from './common/http/logger.js';
import { requestContext } from './common/http/request-context.js';
import { RouteTable } from './common/http/route-table.js';
import type { ResolvedConfig } from './config/config.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Builds the HTTP application (not listening yet): Fastify, the Nest modules and the cross-cutting hooks. */
export async function createApp(
  config: ResolvedConfig,
  dataSource: DataSource,
  logger: Logger,
): Promise<NestFastifyApplication> {
  const routes = new RouteTable();
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new RequestLogController(),
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    requestIdHeader: false,
    // An incoming X-Request-ID is kept when it is a sane token; otherwise a UUID is generated.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const header = req.headers['x-request-id'];
      return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
    },
    forceCloseConnections: 'idle',
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-ID', request.id).header('X-Content-Type-Options', 'nosniff');
    requestContext.run({ requestId: request.id }, done);
  });

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.create(config, dataSource), adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  app.useGlobalFilters(new AllExceptionsFilter(routes));
  app.useGlobalInterceptors(new EtagInterceptor());
  if (config.corsOrigins.length > 0) app.enableCors({ origin: config.corsOrigins, exposedHeaders: ['X-Request-ID', 'ETag'] });
  await app.init();
  return app;
}
