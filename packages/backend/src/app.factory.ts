import { randomUUID } from 'node:crypto';
import { contractRoutes, type HttpMethod, routeKey } from '@aide/schemas';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter, sendError } from './common/errors/all-exceptions.filter.js';
import { AppError } from './common/errors/app-error.js';
import { toAppError } from './common/errors/error-response.js';
import { cacheControlNoStore, isAuthenticatedRoute } from './common/http/cache-control.js';
import { decodeContentEncoding } from './common/http/content-encoding.js';
import { useJsonBodyParser } from './common/http/json-body.js';
import { lazyChildLogger, NestPinoLogger, RequestLogController } from './common/http/logger.js';
import { RouteTable } from './common/http/route-table.js';
import { discardUnreadBody } from './common/http/unread-body.js';
import type { ResolvedConfig } from './config/config.js';
import { createMetrics, routeDurationObserver } from './modules/metrics/metrics.js';
import { registerWebUi } from './web-ui.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Routes taking the OAuth2 password form (declared `bodyType: 'form'`); every other body is JSON. */
const FORM_ROUTES = new Set(
  contractRoutes()
    .filter((r) => r.bodyType === 'form')
    .map((r) => r.path),
);

/** Routes declaring `etag`, by method and Fastify route pattern. */
const ETAG_ROUTES = new Set(
  contractRoutes()
    .filter((r) => r.etag)
    .map(routeKey),
);

/**
 * Whether a body of this content type may go to this route: JSON anywhere, the urlencoded form only
 * where the contract says so. Anything else is refused before parsing, so that a form or text body
 * never reaches a JSON route's validation (where `code=x&name=y` would pass for `{code, name}`).
 */
function acceptsBody(route: string | undefined, contentType: string): boolean {
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (essence === 'application/json') return true;
  return (
    essence === 'application/x-www-form-urlencoded' &&
    route !== undefined &&
    FORM_ROUTES.has(route.replace(/\/+$/, ''))
  );
}

/** `ETag: "<row_version>"` on a success of a route declaring `etag` (bound by the onRoute hook). */
function setEtag(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (reply.statusCode < 300 && payload && typeof payload === 'object' && 'row_version' in payload) {
    void reply.header('ETag', `"${String(payload.row_version)}"`);
  }
  done(null, payload);
}

/** A route option that takes one hook or several, as a list. */
function asArray<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

const routeTables = new WeakMap<NestFastifyApplication, RouteTable>();

/** The routes an application registered (for the route-contract test and diagnostics). */
export function registeredRoutes(app: NestFastifyApplication): readonly { method: string; url: string }[] {
  return routeTables.get(app)?.entries() ?? [];
}

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
    // request.ip (login throttling, logs) is the peer unless the peer is a trusted proxy: then the
    // right-most X-Forwarded-For entry that is not a trusted proxy (proxy-addr semantics).
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    requestIdHeader: false,
    // An incoming X-Request-ID is kept when it is a sane token; otherwise a UUID is generated.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const header = req.headers['x-request-id'];
      return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
    },
    forceCloseConnections: 'idle',
    // The router rejects a malformed URL or an over-long path parameter before any hook or filter
    // runs: those get the headers and the envelope here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('X-Request-ID', request.id).header('X-Content-Type-Options', 'nosniff');
      sendError(reply, request, toAppError(error));
    },
  });
  useJsonBodyParser(adapter, config.bodyLimitBytes);
  const fastify = adapter.getInstance();
  fastify.setChildLoggerFactory(lazyChildLogger);
  // Metrics are collected only where `/metrics` exists (AIDE_METRICS_TOKEN) to be read.
  const collectMetrics = config.metricsToken !== undefined;
  const metrics = createMetrics(collectMetrics);
  fastify.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    // Routes declaring `etag` answer with `ETag: "<row_version>"` of the entity, which `If-Match`
    // accepts back on update. A hook rather than the handler, so that idempotent replays carry it too;
    // bound to those routes only, when they are registered, so that no request works out whether its
    // route is one.
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (
      methods.some((method) => ETAG_ROUTES.has(routeKey({ method: method as HttpMethod, path: route.url })))
    ) {
      route.preSerialization = [...asArray(route.preSerialization), setEtag];
    }
    // Authenticated routes answer `Cache-Control: no-store` (ADR 0036), bound to those routes only.
    if (methods.some((method) => isAuthenticatedRoute(method, route.url))) {
      route.onRequest = [...asArray(route.onRequest), cacheControlNoStore];
    }
    // Request durations by route pattern: a hook of each route knows its pattern, so that no request
    // reads `request.routeOptions` (an object Fastify builds on every read) to label its observation.
    if (collectMetrics) {
      const observe = routeDurationObserver(metrics.requestDuration, route.url);
      const onResponse: onResponseHookHandler = (request, reply, done) => {
        observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
        done();
      };
      route.onResponse = [...asArray(route.onResponse), onResponse];
    }
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-ID', request.id).header('X-Content-Type-Options', 'nosniff');
    done();
  });
  // Draining on shutdown: a response still in flight closes its connection, so close() need not wait
  // for the client's keep-alive to time out (idle connections are closed by close() itself).
  let draining = false;
  fastify.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  // An answer that closes the connection (413, a body that does not parse, draining) waits until the
  // client has sent its body, within bounds: closing earlier would reset the connection under a client
  // still writing, which would then never read the answer. Synchronous otherwise: an async hook would
  // cost every response a promise.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (draining) void reply.header('Connection', 'close');
    const connection = reply.getHeader('connection');
    if (connection === undefined || String(connection).toLowerCase() !== 'close') {
      done(null, payload);
      return;
    }
    void discardUnreadBody(request.raw).then(() => done(null, payload));
  });
  // Requests no route matched; each route observes its own (bound by the onRoute hook above).
  if (collectMetrics) {
    const observeUnmatched = routeDurationObserver(metrics.requestDuration, 'unmatched');
    fastify.addHook('onResponse', (request, reply, done) => {
      if (request.is404) observeUnmatched(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    const type = request.headers['content-type'];
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (
      type !== undefined &&
      hasBody &&
      request.routeOptions.url !== undefined &&
      !acceptsBody(request.routeOptions.url, type)
    ) {
      done(new AppError('UNSUPPORTED_MEDIA_TYPE'));
      return;
    }
    done(null, payload);
  });
  // After the media type is accepted: gzip bodies are decoded, the body limit applying to what they decode to.
  fastify.addHook('preParsing', decodeContentEncoding);

  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.create(config, dataSource, metrics),
    adapter,
    {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    },
  );
  app.useGlobalFilters(new AllExceptionsFilter(routes));
  // The web UI: static files at /ui, a plain Fastify route beside the API (not a Nest controller).
  await registerWebUi(fastify, config.webDir, (message) => logger.warn(message));
  if (config.corsOrigins.length > 0)
    app.enableCors({ origin: config.corsOrigins, exposedHeaders: ['X-Request-ID', 'ETag'] });
  await app.init();
  routeTables.set(app, routes);
  return app;
}
