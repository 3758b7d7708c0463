import { crudRoutes, type ListQuery, type ResourceDef, type RouteDef } from '@aide/schemas';
import { Controller, Inject, type Type } from '@nestjs/common';
import type { z } from 'zod';
import type { AuthUser } from '../auth/current-user.js';
import { Route, type RouteHandler, type RouteInput } from '../contract/route.decorator.js';
import type { CrudService } from './crud-service.js';
import { assertIncludeDeletedAllowed } from './include-deleted.js';

/** The service a resource's controller needs: it must read, create and update that resource's types. */
export type CrudServiceOf<R extends ResourceDef> = CrudService<
  z.output<R['read']>,
  z.output<R['create']>,
  z.output<R['update']>
>;

type Input = RouteInput<RouteDef> & { params: { id: string }; user: AuthUser };

function bind(proto: object, method: string, route: RouteDef | undefined): void {
  if (!route) return;
  const descriptor = Object.getOwnPropertyDescriptor(proto, method);
  if (!descriptor) throw new Error(`no method ${method}`);
  Route(route)(proto, method, descriptor as TypedPropertyDescriptor<RouteHandler<RouteDef>>);
  Object.defineProperty(proto, method, descriptor);
}

/**
 * The controller of a resource's standard routes, bound to `crudRoutes(resource)` of the contract:
 * list, get, create, update (PUT and PATCH), delete, and restore / batch when the resource has them.
 * An entity module extends the returned class to add its own `@Route` handlers. The service must
 * serve the resource's own types, or this does not compile.
 */
export function CrudController<R extends ResourceDef>(resource: R, service: Type<CrudServiceOf<R>>) {
  const routes = crudRoutes(resource);

  @Controller()
  class ResourceController {
    constructor(@Inject(service) readonly service: CrudServiceOf<R>) {}

    list({ query, user }: Input) {
      assertIncludeDeletedAllowed(query as ListQuery, user);
      return this.service.list(query as ListQuery, user);
    }

    get({ params, user }: Input) {
      return this.service.get(params.id, user);
    }

    create({ body, user }: Input) {
      return this.service.create(body as z.output<R['create']>, user);
    }

    put(input: Input) {
      return this.applyUpdate(input);
    }

    patch(input: Input) {
      return this.applyUpdate(input);
    }

    /** PUT and PATCH are the same partial update. */
    applyUpdate({ params, body, ifMatch, user }: Input) {
      // crudRoutes() declares update routes only when the resource has them; the service then has update.
      return this.service.update!(params.id, body as z.output<R['update']>, ifMatch, user);
    }

    remove({ params, user }: Input) {
      return this.service.remove!(params.id, user);
    }

    restore({ params, user }: Input) {
      return this.service.restore!(params.id, user);
    }

    async createMany({ body, user }: Input) {
      const { items } = body as { items: z.output<R['create']>[] };
      const created = await this.service.createMany!(items, user);
      return { items: created, count: created.length };
    }
  }

  const proto = ResourceController.prototype;
  bind(proto, 'list', routes.list);
  bind(proto, 'get', routes.get);
  bind(proto, 'create', routes.create);
  bind(proto, 'put', routes.replace);
  bind(proto, 'patch', routes.update);
  bind(proto, 'remove', routes.delete);
  bind(proto, 'restore', routes.restore);
  bind(proto, 'createMany', routes.batch);
  return ResourceController;
}
