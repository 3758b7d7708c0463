import {
  crudRoutes,
  type CrudRoutes,
  MAX_BATCH_SIZE,
  type Page,
  type ResourceDef,
  type RouteDef,
} from '@aide/schemas';
import type { z } from 'zod';
import { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { API_PREFIX, type ApiClient } from '../internal/api.js';
import { chunkFailure, planChunks, type BatchChunk } from '../internal/batch.js';
import type { QueryValue } from '../internal/query.js';

/** The read shape of a resource (what the API returns). */
export type ReadOf<D extends ResourceDef> = z.output<D['read']>;
/** The create body of a resource (what you send; optional keys may be left out). */
export type CreateOf<D extends ResourceDef> = z.input<D['create']>;
/** The update body of a resource: any subset of the writable fields, plus the current `row_version`. */
export type UpdateOf<D extends ResourceDef> = z.input<D['update']>;

/**
 * Parameters of `list()`: paging, sorting and the resource's filters. Filters use the wire names of the
 * API, `key` or `key__gt|__gte|__lt|__lte|__in|__like`; `__in` takes an array. The server rejects
 * unknown keys with a 422, and lists each resource's filters in its OpenAPI document.
 *
 * ```ts
 * { size: 100, sort: ['-created_at', 'code'], flavor_id__in: [a, b], code__like: 'prod', is_active: true }
 * ```
 */
export interface ListParams {
  /** 1-based page number (default 1). With `for await`, where iteration starts. */
  page?: number | undefined;
  /** Items per page, 1..100 (default 50). */
  size?: number | undefined;
  /** `-created_at,code` or `['-created_at', 'code']`; `-` sorts descending. */
  sort?: string | readonly string[] | undefined;
  /** Also list soft-deleted entities (superusers only; soft-delete resources only). */
  include_deleted?: boolean | undefined;
  /**
   * How `total` is counted: `exact` (default), `estimate` (exact on the last page) or `none` (`total`
   * and `pages` are then lower bounds, and no page counts; the cheapest walk of a large collection).
   * Naming it makes an awaited page carry `next_cursor`.
   */
  total?: 'exact' | 'estimate' | 'none' | undefined;
  /** The `next_cursor` of a previous page with the same sort and filters: the page after it. */
  cursor?: string | undefined;
  [filter: string]: QueryValue;
}

export interface CreateManyOptions<Read = unknown> extends RequestOptions {
  /** Items per request, 1..500 (default 500, the server's maximum). */
  chunkSize?: number | undefined;
  /**
   * Largest request body in bytes (default: 95% of the client's `bodyLimitBytes`, the server's limit):
   * a chunk ends early when its next item would make the JSON body larger.
   */
  maxChunkBytes?: number | undefined;
  /**
   * Called after each chunk is committed, with the created entities and the chunk's index, so a caller
   * can record progress: when a later chunk fails, these stay created.
   */
  onChunk?: ((created: readonly Read[], chunkIndex: number) => void) | undefined;
}

/** Options of `update`. */
export interface UpdateOptions extends RequestOptions {
  /**
   * The `row_version` the change is based on, sent as `If-Match: "<n>"` (the `ETag` of a read) instead
   * of in the body; the body then needs no `row_version`.
   */
  ifMatch?: number | undefined;
}

/** An update body carrying the `row_version` it is based on: required, unless `ifMatch` gives it. */
export type WithRowVersion<Update> = Update & { row_version: number };

/** `update(id, body)`: every collection but the append-only ones. */
export interface Updatable<Read, Update> {
  /**
   * `PATCH /{id}` — partial update: only the keys present are changed (`null` clears a nullable one).
   * Pass the `row_version` you read (in the body, or as `ifMatch`): if someone changed the entity
   * since, this throws `ConflictError` with `errorCode === 'VERSION_CONFLICT'`; read it again and
   * reapply. Without either it does not compile (the server would answer 428 `PRECONDITION_REQUIRED`).
   */
  update(id: string, body: WithRowVersion<Update>, options?: UpdateOptions): Promise<Read>;
  update(id: string, body: Update, options: UpdateOptions & { ifMatch: number }): Promise<Read>;
}

/** The `If-Match` header of an update based on `ifMatch`. */
export function ifMatchHeader(ifMatch: number | undefined): Record<string, string> | undefined {
  if (ifMatch !== undefined && !(Number.isInteger(ifMatch) && ifMatch >= 1)) {
    throw new TypeError(`ifMatch must be a row_version (a positive integer), got ${String(ifMatch)}`);
  }
  return ifMatch === undefined ? undefined : { 'if-match': `"${ifMatch}"` };
}

/** `delete(id)`: every collection but users and audit logs. */
export interface Deletable<Read> {
  /** `DELETE /{id}` (superusers) — returns the deleted entity. Soft-delete resources can `restore` it. */
  delete(id: string, options?: RequestOptions): Promise<Read>;
}

/** `restore(id)`: resources with soft delete. */
export interface Restorable<Read> {
  /** `POST /{id}/restore` (superusers): undeletes a soft-deleted entity and returns it. */
  restore(id: string, options?: RequestOptions): Promise<Read>;
}

/** `createMany(items)`: resources with a `POST /batch` route. */
export interface BatchCreatable<Read, Create> {
  /**
   * Creates many entities with `POST /batch`, in chunks of at most 500 items and at most
   * `maxChunkBytes` of JSON (one request each), and returns them in input order. Each chunk is its own
   * all-or-nothing transaction: when chunk 3 fails, chunks 1 and 2 stay committed and an
   * `AideBatchError` is thrown naming the failed chunk, the rows at fault (positions in `items`), the
   * committed chunks and what they created; its `cause` is the chunk's error. With an `idempotencyKey`,
   * chunk `i` is sent with the key `${idempotencyKey}:${i}`.
   */
  createMany(items: readonly Create[], options?: CreateManyOptions<Read>): Promise<Read[]>;
}

/**
 * The routes every collection has: list (awaitable, or `for await` over all pages), get and create.
 * Built from the collection's `ResourceDef` in `@aide/schemas`: its path, and the schemas responses
 * are checked against. The other routes are added per collection (`CrudResource`, `ResourceClient`).
 */
export class CollectionResource<Read, Create> {
  protected readonly api: ApiClient;
  protected readonly def: ResourceDef;
  /** `/api/v1/<collection>` */
  protected readonly basePath: string;
  /** The collection's standard routes in the contract, generated from its `ResourceDef`. */
  protected readonly routes: CrudRoutes;

  constructor(api: ApiClient, def: ResourceDef) {
    this.api = api;
    this.def = def;
    this.basePath = `${API_PREFIX}/${def.path}`;
    this.routes = crudRoutes(def);
  }

  /**
   * `GET /` — one page, or with `for await` every item from `params.page` on (walked by `next_cursor`,
   * so without the offset limit of a single page):
   *
   * ```ts
   * const page = await client.systems.list({ size: 20, code__like: 'prod' });
   * for await (const system of client.systems.list({ size: 100 })) { ... }
   * ```
   */
  list(params: ListParams = {}, options?: RequestOptions): PagePromise<Read> {
    const { page, ...query } = params;
    const get = (q: Record<string, QueryValue>) =>
      this.api.invoke(this.routes.list, {
        query: q,
        options,
        expected: `Page<${this.def.name}>`,
      }) as Promise<Page<Read>>;
    // Iterating walks by cursor (no depth limit); naming `total` asks for `next_cursor`.
    const total = query.total ?? 'exact';
    return new PagePromise((n) => get({ ...query, page: n }), page ?? 1, {
      first: (n) => get({ ...query, page: n, total }),
      after: (cursor) => get({ ...query, cursor, total }),
    });
  }

  /** Every item of every page, as an async iterator: the same as `for await (... of list(params))`. */
  iterate(params: ListParams = {}, options?: RequestOptions): AsyncGenerator<Read, void, undefined> {
    return this.list(params, options)[Symbol.asyncIterator]();
  }

  /** `GET /{id}` — throws `NotFoundError` (`*_NOT_FOUND`) when absent or soft-deleted. */
  get(id: string, options?: RequestOptions): Promise<Read> {
    return this.api.invoke(this.routes.get, { params: { id }, options }) as Promise<Read>;
  }

  /** `POST /` — 201 with the created entity; `ConflictError` (`*_ALREADY_EXISTS`) on a duplicate. */
  create(body: Create, options?: RequestOptions): Promise<Read> {
    return this.api.invoke(this.routes.create, { body, options }) as Promise<Read>;
  }
}

/** What the route functions below need of a resource: its protected members. */
interface Internals {
  api: ApiClient;
  def: ResourceDef;
  routes: CrudRoutes;
}

function declared(route: RouteDef | undefined, name: string): RouteDef {
  if (!route) throw new Error(`The collection has no ${name} route`);
  return route;
}

function internals(resource: CollectionResource<unknown, unknown>): Internals {
  return resource as unknown as Internals;
}

// The optional routes, written once and attached to the classes of the collections that have them.
const routes = {
  update: function (
    this: CollectionResource<unknown, unknown>,
    id: string,
    body: unknown,
    options?: UpdateOptions,
  ) {
    const r = internals(this);
    const { ifMatch, ...requestOptions } = options ?? {};
    return r.api.invoke(declared(r.routes.update, 'update'), {
      params: { id },
      body,
      headers: ifMatchHeader(ifMatch),
      options: requestOptions,
    });
  },
  delete: function (this: CollectionResource<unknown, unknown>, id: string, options?: RequestOptions) {
    const r = internals(this);
    return r.api.invoke(declared(r.routes.delete, 'delete'), { params: { id }, options });
  },
  restore: function (this: CollectionResource<unknown, unknown>, id: string, options?: RequestOptions) {
    const r = internals(this);
    return r.api.invoke(declared(r.routes.restore, 'restore'), { params: { id }, options });
  },
  createMany: async function (
    this: CollectionResource<unknown, unknown>,
    items: readonly unknown[],
    options: CreateManyOptions = {},
  ): Promise<unknown[]> {
    const r = internals(this);
    const {
      chunkSize = MAX_BATCH_SIZE,
      maxChunkBytes = Math.floor(r.api.bodyLimitBytes * 0.95),
      onChunk,
      ...requestOptions
    } = options;
    if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_BATCH_SIZE) {
      throw new RangeError(`chunkSize must be an integer from 1 to ${MAX_BATCH_SIZE}, got ${chunkSize}`);
    }
    if (!Number.isInteger(maxChunkBytes) || maxChunkBytes < 1) {
      throw new RangeError(`maxChunkBytes must be a positive integer, got ${maxChunkBytes}`);
    }
    const route = declared(r.routes.batch, 'batch');
    const key = requestOptions.idempotencyKey;
    const created: unknown[] = [];
    const committed: BatchChunk[] = [];
    for (const chunk of planChunks(items, chunkSize, maxChunkBytes)) {
      let result: { items: unknown[] };
      try {
        result = (await r.api.invoke<RouteDef>(route, {
          body: { items: items.slice(chunk.start, chunk.end) },
          options: {
            ...requestOptions,
            idempotencyKey: key === undefined ? undefined : `${key}:${chunk.index}`,
          },
        })) as { items: unknown[] };
      } catch (error) {
        throw chunkFailure(error, chunk, committed, created);
      }
      created.push(...result.items);
      committed.push(chunk);
      onChunk?.(result.items, chunk.index);
    }
    return created;
  },
};

type RouteName = keyof typeof routes;

/** Adds route functions to a class prototype (non-enumerable, like class methods). */
function attach(target: object, names: readonly RouteName[]): void {
  for (const name of names) {
    // Installed as a method of the prototype, so it is always called with the resource as `this`.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    Object.defineProperty(target, name, { value: routes[name], writable: true, configurable: true });
  }
}

/** The common collection: list, get, create, update and delete. */
export class CrudResource<Read, Create, Update>
  extends CollectionResource<Read, Create>
  implements Updatable<Read, Update>, Deletable<Read>
{
  /**
   * `PATCH /{id}` — partial update: only the keys present are changed (`null` clears a nullable one).
   * Pass the `row_version` you read (in the body, or as `ifMatch`): if someone changed the entity
   * since, this throws `ConflictError` with `errorCode === 'VERSION_CONFLICT'`; read it again and
   * reapply.
   */
  update(id: string, body: WithRowVersion<Update>, options?: UpdateOptions): Promise<Read>;
  update(id: string, body: Update, options: UpdateOptions & { ifMatch: number }): Promise<Read>;
  update(id: string, body: Update, options?: UpdateOptions): Promise<Read> {
    return routes.update.call(this, id, body, options) as Promise<Read>;
  }

  /** `DELETE /{id}` (superusers) — returns the deleted entity. Soft-delete resources can `restore` it. */
  delete(id: string, options?: RequestOptions): Promise<Read> {
    return routes.delete.call(this, id, options) as Promise<Read>;
  }
}

/** A collection with soft delete: `CrudResource` plus `restore`. */
export type SoftDeleteResource<Read, Create, Update> = CrudResource<Read, Create, Update> & Restorable<Read>;
/** A collection with a batch route: `CrudResource` plus `createMany`. */
export type BatchResource<Read, Create, Update> = CrudResource<Read, Create, Update> &
  BatchCreatable<Read, Create>;

/** The routes a collection has beyond list, get and create. */
export interface ResourceCapabilities {
  /** `POST /{id}/restore` (and `include_deleted`). */
  readonly softDelete: boolean;
  /** `POST /batch` */
  readonly batch: boolean;
  /** `PATCH /{id}`; default true. False for append-only collections. */
  readonly update?: boolean;
  /** `DELETE /{id}`; default true. */
  readonly delete?: boolean;
}

/**
 * A collection's capabilities, derived from its `ResourceDef` (whose flags keep their literal types):
 * nothing is restated by hand.
 */
export type CapabilitiesOf<D extends ResourceDef> = {
  readonly softDelete: D['softDelete'];
  readonly batch: D['batch'];
  readonly update: Lacks<D, 'update'> extends true ? false : true;
  readonly delete: Lacks<D, 'delete'> extends true ? false : true;
};

/** Whether a definition lists the route in `without`. */
type Lacks<D, Route extends string> = D extends { readonly without: readonly (infer W)[] }
  ? Route extends W
    ? true
    : false
  : false;

/** The capabilities of a `ResourceDef` at run time. */
export function capabilitiesOf(def: ResourceDef): ResourceCapabilities {
  const without = def.without ?? [];
  return {
    softDelete: def.softDelete,
    batch: def.batch,
    update: !without.includes('update'),
    delete: !without.includes('delete'),
  };
}

/**
 * The client type of a collection: its routes and no others, so a call the backend does not serve
 * does not type-check.
 */
export type ResourceClient<D extends ResourceDef, C extends ResourceCapabilities> = CollectionResource<
  ReadOf<D>,
  CreateOf<D>
> &
  (C['update'] extends false ? unknown : Updatable<ReadOf<D>, UpdateOf<D>>) &
  (C['delete'] extends false ? unknown : Deletable<ReadOf<D>>) &
  (C['softDelete'] extends true ? Restorable<ReadOf<D>> : unknown) &
  (C['batch'] extends true ? BatchCreatable<ReadOf<D>, CreateOf<D>> : unknown);

/**
 * A class of collection clients, constructed like `CollectionResource`: the generic classes, or a
 * collection's own subclass adding its entity-specific calls (`DatasetsResource`, ...).
 */
export type ResourceConstructor<
  R extends CollectionResource<unknown, unknown> = CollectionResource<unknown, unknown>,
> = new (api: ApiClient, def: ResourceDef) => R;

type ResourceClass = ResourceConstructor;
const classes = new WeakMap<ResourceClass, Map<string, ResourceClass>>();
const ROUTE_NAMES: readonly RouteName[] = ['update', 'delete', 'restore', 'createMany'];

/**
 * One class per base and combination of routes: the base (a collection's own class, else
 * `CrudResource` or the bare collection) plus the routes it does not define itself.
 */
function classFor(path: string, routeNames: readonly RouteName[], Own?: ResourceClass): ResourceClass {
  const crud = routeNames.includes('update') && routeNames.includes('delete');
  const Base: ResourceClass = Own ?? (crud ? CrudResource : CollectionResource);
  const proto = Base.prototype as object;
  for (const name of ROUTE_NAMES) {
    if (name in proto && !routeNames.includes(name)) {
      throw new Error(`Resource ${path}: ${Base.name} has ${name}() but the collection has no such route`);
    }
  }
  const extras = routeNames.filter((n) => !(n in proto));
  if (extras.length === 0) return Base;
  const key = extras.join(',');
  let byRoutes = classes.get(Base);
  if (!byRoutes) classes.set(Base, (byRoutes = new Map<string, ResourceClass>()));
  let Class = byRoutes.get(key);
  if (!Class) {
    Class = class extends Base {};
    // e.g. `CrudResource+restore+createMany`, for stack traces and the console.
    Object.defineProperty(Class, 'name', { value: [Base.name, ...extras].join('+') });
    attach(Class.prototype as object, extras);
    byRoutes.set(key, Class);
  }
  return Class;
}

/** Routes the def says the collection lacks (`without`, newer `@aide/schemas`). */
function missingRoutes(def: ResourceDef): readonly string[] {
  return (def as { without?: readonly string[] }).without ?? [];
}

/**
 * Builds the client of a collection from its `ResourceDef`. The capabilities are checked against the
 * def, so a client cannot claim a route the backend does not serve. `Own` is the collection's own class
 * (its entity-specific calls); the routes it does not define are added to a subclass of it.
 */
export function createResource<D extends ResourceDef, const C extends ResourceCapabilities>(
  api: ApiClient,
  def: D,
  capabilities: C,
): ResourceClient<D, C>;
export function createResource<
  D extends ResourceDef,
  const C extends ResourceCapabilities,
  R extends CollectionResource<ReadOf<D>, CreateOf<D>>,
>(api: ApiClient, def: D, capabilities: C, Own: ResourceConstructor<R>): R & ResourceClient<D, C>;
export function createResource(
  api: ApiClient,
  def: ResourceDef,
  capabilities: ResourceCapabilities,
  Own?: ResourceConstructor<CollectionResource<unknown, unknown>>,
): CollectionResource<unknown, unknown> {
  const without = missingRoutes(def);
  const has: Record<RouteName, boolean> = {
    update: capabilities.update !== false,
    delete: capabilities.delete !== false,
    restore: capabilities.softDelete,
    createMany: capabilities.batch,
  };
  const served: Record<RouteName, boolean> = {
    update: !without.includes('update'),
    delete: !without.includes('delete'),
    restore: def.softDelete,
    createMany: def.batch,
  };
  const names = ROUTE_NAMES.filter((name) => has[name]);
  for (const name of names) {
    if (!served[name]) {
      throw new Error(`Resource ${def.path}: the SDK claims ${name}() but its ResourceDef has no such route`);
    }
  }
  const Class = classFor(def.path, names, Own);
  return new Class(api, def);
}
