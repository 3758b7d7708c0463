import { batchOf, batchResultOf, keysetPageOf, listQuerySchema } from '../common/list-query.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { ResourceDef, ResourceKeys } from '../resource.js';
import { defineRoute, idParams, type RouteKeys } from './route.js';

/** A collection's key policy by the kind of route: what reads, what creates and updates, what deletes. */
const KEYS: Record<ResourceKeys, { read: RouteKeys; write: RouteKeys; remove: RouteKeys }> = {
  workspace: { read: 'workspace', write: 'workspace', remove: 'workspace' },
  catalogue: { read: 'catalogue:read', write: 'catalogue:write', remove: 'none' },
  reference: { read: 'catalogue:read', write: 'none', remove: 'none' },
  none: { read: 'none', write: 'none', remove: 'none' },
};

/**
 * The standard routes of a collection, generated from its `ResourceDef`: list, get, create, update
 * (PUT and PATCH, both partial), delete, and restore / batch when the resource has them. Routes the
 * resource lacks (`without`, no soft delete, no batch) are absent from the result.
 */
export function crudRoutes<R extends ResourceDef>(r: R) {
  const base = `/api/v1/${r.path}` as const;
  const item = `${base}/:id` as const;
  const forbidden: ErrorCode[] = r.writeRole === 'superuser' ? ['FORBIDDEN'] : [];
  const readAuth = r.readRole ?? 'user';
  const keys = KEYS[r.keys];
  // Typed locals: the routes then carry this resource's own schemas, not ResourceDef's bounds.
  const read: R['read'] = r.read;
  const create: R['create'] = r.create;
  const updateBody: R['update'] = r.update;
  const update = (method: 'PUT' | 'PATCH') =>
    defineRoute({
      method,
      path: item,
      pathParams: idParams,
      body: updateBody,
      responses: { 200: read },
      errors: [...forbidden, r.notFound, 'VERSION_CONFLICT', 'PRECONDITION_REQUIRED', ...r.errors],
      auth: r.writeRole,
      keys: keys.write,
      etag: true,
      ifMatch: true,
      summary: `Update a ${r.name} (partial)`,
      tag: r.tag,
    });
  const routes = {
    list: defineRoute({
      method: 'GET',
      path: base,
      query: listQuerySchema(r.list),
      responses: { 200: keysetPageOf(read) },
      errors: r.softDelete || readAuth === 'superuser' ? ['FORBIDDEN'] : [],
      auth: readAuth,
      keys: keys.read,
      paging: 'page',
      summary: `List ${r.tag.toLowerCase()}`,
      tag: r.tag,
    }),
    get: defineRoute({
      method: 'GET',
      path: item,
      pathParams: idParams,
      responses: { 200: read },
      errors: [r.notFound],
      auth: readAuth,
      keys: keys.read,
      etag: true,
      summary: `Get a ${r.name}`,
      tag: r.tag,
    }),
    create: defineRoute({
      method: 'POST',
      path: base,
      body: create,
      responses: { 201: read },
      responseDescriptions: { 201: 'Created' },
      errors: [...forbidden, ...r.errors],
      auth: r.writeRole,
      keys: keys.write,
      idempotent: true,
      etag: true,
      summary: `Create a ${r.name}`,
      tag: r.tag,
    }),
    replace: r.without?.includes('update') ? undefined : update('PUT'),
    update: r.without?.includes('update') ? undefined : update('PATCH'),
    delete: r.without?.includes('delete')
      ? undefined
      : defineRoute({
          method: 'DELETE',
          path: item,
          pathParams: idParams,
          responses: { 200: read },
          errors: ['FORBIDDEN', r.notFound, ...(r.deleteErrors ?? ['HAS_DEPENDENT_ENTITIES'])],
          auth: 'superuser',
          keys: keys.remove,
          etag: true,
          summary: `Delete a ${r.name}`,
          tag: r.tag,
        }),
    restore: !r.softDelete
      ? undefined
      : defineRoute({
          method: 'POST',
          path: `${item}/restore`,
          pathParams: idParams,
          responses: { 200: read },
          errors: ['FORBIDDEN', r.notFound, 'ENTITY_NOT_DELETED', ...(r.restoreErrors ?? [])],
          auth: 'superuser',
          keys: keys.remove,
          etag: true,
          summary: `Restore a deleted ${r.name}`,
          tag: r.tag,
        }),
    batch: !r.batch
      ? undefined
      : defineRoute({
          method: 'POST',
          path: `${base}/batch`,
          body: batchOf(create),
          responses: { 201: batchResultOf(read) },
          responseDescriptions: { 201: 'Created' },
          errors: [...forbidden, 'BATCH_TOO_LARGE', ...r.errors],
          auth: r.writeRole,
          keys: keys.write,
          idempotent: true,
          batch: true,
          summary: `Create many ${r.tag.toLowerCase()} at once (all or nothing)`,
          tag: r.tag,
        }),
  };
  return routes;
}

export type CrudRoutes<R extends ResourceDef = ResourceDef> = ReturnType<typeof crudRoutes<R>>;
