import { contractRoutes, type HttpMethod, routeKey } from '@aide/schemas';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * The routes that need a caller (every contract route but login and refresh; the routes outside the
 * contract — health, docs, metrics, the web UI — are public), by method and Fastify route pattern.
 */
const AUTHENTICATED_ROUTES = new Set(
  contractRoutes()
    .filter((r) => r.auth !== 'anonymous')
    .map(routeKey),
);

/** Whether a route Fastify registers (a HEAD route is its GET route's twin) needs a caller. */
export function isAuthenticatedRoute(method: string, url: string): boolean {
  return AUTHENTICATED_ROUTES.has(
    routeKey({ method: method === 'HEAD' ? 'GET' : (method as HttpMethod), path: url }),
  );
}

/**
 * `Cache-Control: no-store` on every response of an authenticated route, errors included (ADR 0036):
 * no browser, proxy or CDN keeps what a caller was shown. Set when the request arrives, so that every
 * answer carries it, and a route with a caching policy of its own (the DataCoolie snapshot's
 * `private, no-cache`, which its `ETag`/304 revalidation needs) sets its header over it.
 */
export function cacheControlNoStore(
  _request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  void reply.header('Cache-Control', 'no-store');
  done();
}
