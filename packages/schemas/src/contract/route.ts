import { z } from 'zod';
import type { ApiKeyScope } from '../entities/api-key.js';
import type { ErrorCode } from '../errors/error-codes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: nobody in particular (`anonymous`: login, token refresh), any active user
 * (`user`), superusers only (`superuser`), or service accounts (`technical`: technical users and
 * superusers).
 */
export type RouteAuth = 'anonymous' | 'user' | 'superuser' | 'technical';

/**
 * What an API-key caller may do on a route (ADR 0020, amendment of issue 22); a token caller is not
 * concerned. `none`: nothing, the key is refused (user administration, key management, reference-data
 * administration, deletes of shared rows). `workspace`: the route touches workspace-owned rows and its
 * service keeps the key to its workspaces (`common/auth/workspace-scope.ts`). A key scope
 * (`catalogue:read`, `catalogue:write`): only a key created with that scope. Every route declares it:
 * there is no default, so a new route cannot admit keys by omission.
 */
export type RouteKeys = 'none' | 'workspace' | ApiKeyScope;

/** The `:name` parameters of a path template, as a union: `'id' | 'num'` for `/datasets/:id/x/:num`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** Response schemas by HTTP status; `null` is a response without a body (204, 304). */
export type RouteResponses = Readonly<Partial<Record<number, z.ZodType | null>>>;

/**
 * One operation of the API, declared once. The backend binds a handler to it (`@Route`), validates
 * the request with its schemas and sets its status and headers; the OpenAPI document is generated from
 * it; the SDK calls it (`ApiClient.invoke`) and is typed by it.
 */
export interface RouteDef<
  Path extends string = string,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Responses extends RouteResponses = RouteResponses,
> {
  readonly method: HttpMethod;
  /** Express-style template under the origin: `/api/v1/datasets/:id/schema-versions/:num`. */
  readonly path: Path;
  /** Parses the path parameters; its keys are exactly the template's `:names`. */
  readonly pathParams: Params;
  /** Parses the query string; without one, any query key is refused. */
  readonly query: Query;
  /** Parses the body. */
  readonly body: Body;
  /** `form`: `application/x-www-form-urlencoded` (the OAuth2 password login); `json` otherwise. */
  readonly bodyType: 'json' | 'form';
  /** Success responses by status; the first is the default status. */
  readonly responses: Responses;
  readonly responseDescriptions: Readonly<Partial<Record<number, string>>>;
  /** Error codes of the catalogue the route may answer with, besides the ones every route can give. */
  readonly errors: readonly ErrorCode[];
  readonly auth: RouteAuth;
  /** Whether and how an API key may call the route, besides `auth` (which applies to the key's owner). */
  readonly keys: RouteKeys;
  /** Honours `Idempotency-Key` (writes that create something). */
  readonly idempotent: boolean;
  /** Writes nothing though it is not a GET (a read whose input is a body): clients may retry it. */
  readonly safe: boolean;
  /** Answers `ETag: "<row_version>"` of the entity it returns. */
  readonly etag: boolean;
  /** Reads `If-Match: "<row_version>"` (optimistic concurrency). */
  readonly ifMatch: boolean;
  /** Answers `Cache-Control: no-store` (responses carrying tokens). */
  readonly noStore: boolean;
  /** The body is `{items: [...]}` and more than `MAX_BATCH_SIZE` items is `BATCH_TOO_LARGE`, checked first. */
  readonly batch: boolean;
  /** How the route pages: `page` (`page`/`size`, `{items, total, ...}`), `cursor` (`next_cursor`). */
  readonly paging: 'page' | 'cursor' | undefined;
  readonly summary: string;
  readonly description: string | undefined;
  /** OpenAPI tag, e.g. `Schema versions`. */
  readonly tag: string;
}

type Defaults = 'bodyType' | 'responseDescriptions' | 'idempotent' | 'safe' | 'etag' | 'ifMatch';
type Optional = Defaults | 'noStore' | 'batch' | 'paging' | 'description' | 'pathParams' | 'query' | 'body';

/** What `defineRoute` takes: `RouteDef` with its flags optional (false by default). */
export type RouteSpec<
  Path extends string,
  Params extends z.ZodType | undefined,
  Query extends z.ZodType | undefined,
  Body extends z.ZodType | undefined,
  Responses extends RouteResponses,
> = Omit<RouteDef<Path, Params, Query, Body, Responses>, Optional> &
  Partial<Pick<RouteDef<Path, Params, Query, Body, Responses>, Optional>>;

/** A path template with parameters needs a `pathParams` schema naming them; one without needs none. */
type ParamsFor<Path extends string, Params> = [PathParamNames<Path>] extends [never]
  ? { pathParams?: undefined }
  : { pathParams: Params & z.ZodType<Record<PathParamNames<Path>, unknown>> };

function templateNames(path: string): string[] {
  return path
    .split('/')
    .filter((part) => part.startsWith(':'))
    .map((part) => part.slice(1))
    .sort();
}

/** Declares a route; see `RouteDef`. Checks at load time what the compiler cannot (exact param names). */
export function defineRoute<
  const Path extends string,
  Responses extends RouteResponses,
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(
  spec: RouteSpec<Path, Params, Query, Body, Responses> & ParamsFor<Path, Params>,
): RouteDef<Path, Params, Query, Body, Responses> {
  const names = templateNames(spec.path);
  const shape = spec.pathParams instanceof z.ZodObject ? Object.keys(spec.pathParams.shape).sort() : [];
  if (names.join() !== shape.join()) {
    throw new Error(
      `${spec.method} ${spec.path}: pathParams must declare exactly ${names.join(', ') || 'nothing'}`,
    );
  }
  if (Object.keys(spec.responses).length === 0) throw new Error(`${spec.method} ${spec.path}: no responses`);
  return {
    bodyType: 'json',
    responseDescriptions: {},
    idempotent: false,
    safe: false,
    etag: false,
    ifMatch: false,
    noStore: false,
    batch: false,
    paging: undefined,
    description: undefined,
    ...spec,
    pathParams: spec.pathParams as Params,
    query: spec.query as Query,
    body: spec.body as Body,
  };
}

/** The default (first declared) success status of a route. */
export function defaultStatus(route: RouteDef): number {
  return Number(Object.keys(route.responses)[0]);
}

/** The template in OpenAPI form: `/datasets/{id}`. */
export function openApiPath(route: RouteDef): string {
  return route.path.replace(/:(\w+)/g, '{$1}');
}

/** `GET /api/v1/datasets/:id`: how a route is named in messages and tests. */
export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** Path parameters: a UUID, answered in lower case whatever case it was sent in. */
export const uuidParam = z.uuid({ error: 'must be a UUID' }).overwrite((value) => value.toLowerCase());

/** `/:id` routes. */
export const idParams = z.object({ id: uuidParam });

// Type helpers: what a route takes and gives, for the server's handlers and the SDK's methods.
type OutputOf<T> = T extends z.ZodType ? z.output<T> : undefined;
type InputOf<T> = T extends z.ZodType ? z.input<T> : undefined;

export type RouteParams<R extends RouteDef> = OutputOf<R['pathParams']>;
export type RouteQuery<R extends RouteDef> = OutputOf<R['query']>;
export type RouteBody<R extends RouteDef> = OutputOf<R['body']>;
export type RouteParamsInput<R extends RouteDef> = InputOf<R['pathParams']>;
export type RouteQueryInput<R extends RouteDef> = InputOf<R['query']>;
export type RouteBodyInput<R extends RouteDef> = InputOf<R['body']>;

/** The statuses a route answers with on success. */
export type RouteStatus<R extends RouteDef> = Extract<keyof R['responses'], number>;

type BodyOf<T> = T extends z.ZodType ? z.output<T> : undefined;

/** The body of a success status (undefined when it has none). */
export type RouteResponseBody<
  R extends RouteDef,
  S extends RouteStatus<R> = RouteStatus<R>,
> = S extends unknown ? BodyOf<R['responses'][S]> : never;
