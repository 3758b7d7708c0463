import { batchOf, type ListQuery, type ResourceDef } from '@aide/schemas';
import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  type Type,
  UseInterceptors,
} from '@nestjs/common';
import type { z } from 'zod';
import { type AuthUser, CurrentUser, REQUIRES_SUPERUSER } from '../auth/current-user.js';
import { AppError } from '../errors/app-error.js';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor.js';
import { BatchBodyPipe, body, listQuery, noQuery, parseIfMatch, UuidPipe } from '../validation/zod.pipe.js';
import type { CrudService } from './crud-service.js';
import { assertIncludeDeletedAllowed } from './include-deleted.js';

type MethodDecorator = (target: object, key: string, descriptor: PropertyDescriptor) => void;

function decorate(proto: object, method: string, ...decorators: MethodDecorator[]): void {
  const descriptor = Object.getOwnPropertyDescriptor(proto, method);
  if (!descriptor) throw new Error(`no method ${method}`);
  for (const d of decorators) d(proto, method, descriptor);
}

function superuser(required: boolean): MethodDecorator {
  return (_target, _key, descriptor) => {
    Reflect.defineMetadata(REQUIRES_SUPERUSER, required, descriptor.value as object);
  };
}

/**
 * Builds the controller of a resource's standard routes from its definition in `@aide/schemas`:
 * list, get, create, update (PUT and PATCH), delete, and restore / batch when the resource has them.
 * Writes need `writeRole`; deletes and restores need a superuser. An entity module extends the
 * returned class to add its own routes.
 */
export function CrudController<TRead, TCreate, TUpdate>(
  resource: ResourceDef,
  service: Type<CrudService<TRead, TCreate, TUpdate>>,
) {
  const writeNeedsSuperuser = resource.writeRole === 'superuser';
  const batchBody = batchOf(resource.create);

  @Controller(`api/v1/${resource.path}`)
  class ResourceController {
    constructor(@Inject(service) readonly service: CrudService<TRead, TCreate, TUpdate>) {}

    @Get()
    list(@Query(listQuery(resource.list)) query: ListQuery, @CurrentUser() user: AuthUser) {
      assertIncludeDeletedAllowed(query, user);
      return this.service.list(query, user);
    }

    @Get(':id')
    get(@Param('id', UuidPipe) id: string, @Query(noQuery) _query: object, @CurrentUser() user: AuthUser) {
      return this.service.get(id, user);
    }

    @Post()
    create(@Body(body(resource.create)) input: TCreate, @CurrentUser() user: AuthUser) {
      return this.service.create(input, user);
    }

    update(id: string, input: TUpdate, ifMatch: string | undefined, user: AuthUser) {
      if (!this.service.update) throw new AppError('METHOD_NOT_ALLOWED');
      return this.service.update(id, input, parseIfMatch(ifMatch), user);
    }

    put(
      @Param('id', UuidPipe) id: string,
      @Body(body(resource.update)) input: TUpdate,
      @Headers('if-match') ifMatch: string | undefined,
      @CurrentUser() user: AuthUser,
    ) {
      return this.update(id, input, ifMatch, user);
    }

    patch(
      @Param('id', UuidPipe) id: string,
      @Body(body(resource.update)) input: TUpdate,
      @Headers('if-match') ifMatch: string | undefined,
      @CurrentUser() user: AuthUser,
    ) {
      return this.update(id, input, ifMatch, user);
    }

    remove(@Param('id', UuidPipe) id: string, @CurrentUser() user: AuthUser) {
      if (!this.service.remove) throw new AppError('METHOD_NOT_ALLOWED');
      return this.service.remove(id, user);
    }

    restore(@Param('id', UuidPipe) id: string, @CurrentUser() user: AuthUser) {
      if (!this.service.restore) throw new AppError('METHOD_NOT_ALLOWED');
      return this.service.restore(id, user);
    }

    async createMany(
      @Body(new BatchBodyPipe(batchBody)) input: z.output<typeof batchBody>,
      @CurrentUser() user: AuthUser,
    ) {
      if (!this.service.createMany) throw new AppError('METHOD_NOT_ALLOWED');
      const items = await this.service.createMany(input.items as TCreate[], user);
      return { items, count: items.length };
    }
  }

  const proto = ResourceController.prototype;
  // Creates honour Idempotency-Key (bound per route: reads should not pay for it).
  decorate(proto, 'create', UseInterceptors(IdempotencyInterceptor), superuser(writeNeedsSuperuser));
  if (!resource.without?.includes('update')) {
    decorate(proto, 'put', Put(':id'), superuser(writeNeedsSuperuser));
    decorate(proto, 'patch', Patch(':id'), superuser(writeNeedsSuperuser));
  }
  if (!resource.without?.includes('delete')) decorate(proto, 'remove', Delete(':id'), superuser(true));
  if (resource.softDelete) decorate(proto, 'restore', Post(':id/restore'), HttpCode(200), superuser(true));
  // Declared before `:id` routes would not matter: Fastify's router prefers static segments.
  if (resource.batch) {
    decorate(
      proto,
      'createMany',
      Post('batch'),
      UseInterceptors(IdempotencyInterceptor),
      superuser(writeNeedsSuperuser),
    );
  }
  return ResourceController;
}
