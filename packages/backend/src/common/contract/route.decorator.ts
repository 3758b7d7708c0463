import { defaultStatus, type RouteDef, type RouteResponseBody, type RouteStatus } from '@aide/schemas';
import {
  createParamDecorator,
  type ExecutionContext,
  Header,
  RequestMapping,
  RequestMethod,
  Res,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ROUTE_DEF } from '../auth/current-user.js';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';
import { parseRouteInput, type RouteInput } from './route-input.js';

const RESPONSE = Symbol('aide:route-response');

/** A response with a status other than the route's first, or with headers of its own. */
export interface RouteResponse<R extends RouteDef = RouteDef> {
  readonly [RESPONSE]: true;
  readonly status: RouteStatus<R>;
  readonly body: RouteResponseBody<R>;
  readonly headers: Readonly<Record<string, string>>;
}

/** Answers with one of the route's declared statuses: `return respond(route, 200, result)`. */
export function respond<R extends RouteDef, S extends RouteStatus<R>>(
  _route: R,
  status: S,
  body: RouteResponseBody<R, S>,
  headers: Readonly<Record<string, string>> = {},
): RouteResponse<R> {
  return { [RESPONSE]: true, status, body, headers };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function isRouteResponse(value: unknown): value is RouteResponse {
  return typeof value === 'object' && value !== null && RESPONSE in value;
}

const RAW_JSON = Symbol('aide:raw-json');

/** The route's first declared body, already serialised (see `rawJson`). */
export interface RawJson<R extends RouteDef = RouteDef> {
  readonly [RAW_JSON]: true;
  readonly route: R;
  readonly text: string;
}

/**
 * Answers with the route's first status and a body already serialised: `text` must be exactly what
 * `JSON.stringify` gives for a body the route declares (it is sent as it is, never parsed). For bulk
 * reads assembled from stored JSON texts (the system snapshot, ADR 0029).
 */
export function rawJson<R extends RouteDef>(route: R, text: string): RawJson<R> {
  return { [RAW_JSON]: true, route, text };
}

function isRawJson(value: unknown): value is RawJson {
  return typeof value === 'object' && value !== null && RAW_JSON in value;
}

/** What a handler bound to `R` may return: the body of a declared status, `respond(...)` or `rawJson(...)`. */
export type RouteResult<R extends RouteDef> = RouteResponseBody<R> | RouteResponse<R> | RawJson<R>;

export type RouteHandler<R extends RouteDef> = (
  input: RouteInput<R>,
) => RouteResult<R> | Promise<RouteResult<R>>;

const RouteInputParam = createParamDecorator((route: RouteDef, context: ExecutionContext) => {
  const http = context.switchToHttp();
  return parseRouteInput(route, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
});

/**
 * Binds a handler to a route of the contract (`@aide/schemas`): method and path, auth, validation of
 * every input, the success status, idempotency keys. The compiler checks the handler's parameter and
 * return type against the declaration; `route-contract.e2e-spec.ts` checks that every route of the
 * contract has a handler and no handler lacks a route. Controllers carry `@Controller()` without a prefix.
 */
export function Route<R extends RouteDef>(route: R) {
  return <H extends RouteHandler<R>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    const handler = descriptor.value;
    if (!handler) throw new Error(`@Route on ${String(key)}: not a method`);
    const status = defaultStatus(route);
    const finish = (input: RouteInput<R>, result: RouteResult<R>): unknown => {
      if (isRawJson(result)) {
        void input.reply.status(status).type('application/json; charset=utf-8');
        return result.text;
      }
      if (isRouteResponse(result)) {
        void input.reply.status(result.status).headers(result.headers);
        return result.body;
      }
      void input.reply.status(status);
      return result;
    };
    // Routes without interceptors send their answer themselves (Nest's `@Res()` without passthrough):
    // Nest's own response path (its stream checks, another two async steps) would only hand the same
    // body to the same `reply.send`. Idempotent routes return it: their interceptor records it.
    const sendsItself = !route.idempotent;
    const send = (input: RouteInput<R>, result: RouteResult<R>): undefined => {
      void input.reply.send(finish(input, result));
      return undefined;
    };
    const complete = sendsItself ? send : finish;
    // Not `async`: a handler's promise is continued with one `then`, not wrapped in another promise.
    const bound = function (this: unknown, input: RouteInput<R>): unknown {
      const result = handler.call(this, input);
      return isPromiseLike(result) ? result.then((value) => complete(input, value)) : complete(input, result);
    };
    // Nest reads a handler's metadata from the function itself: the wrapper is what it registers.
    Object.defineProperty(bound, 'name', { value: handler.name });
    descriptor.value = bound as unknown as H;
    SetMetadata(ROUTE_DEF, route)(target, key, descriptor);
    RequestMapping({ path: route.path.replace(/^\//, ''), method: RequestMethod[route.method] })(
      target,
      key,
      descriptor,
    );
    if (route.idempotent) UseInterceptors(IdempotencyInterceptor)(target, key, descriptor);
    // Responses carrying tokens must not be stored by any cache (RFC 6749, section 5.1).
    if (route.noStore) {
      Header('Cache-Control', 'no-store')(target, key, descriptor);
      Header('Pragma', 'no-cache')(target, key, descriptor);
    }
    RouteInputParam(route)(target, key, 0);
    if (sendsItself) Res()(target, key, 1);
  };
}

export type { RouteInput } from './route-input.js';
