import {
  BulkFieldLinksSchema,
  type CreateLinkFieldLink,
  CreateLinkFieldLinkSchema,
  type FieldLink,
  fieldLinkResource,
} from '@aide/schemas';
import { Body, Controller, Get, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { type AuthUser, CurrentUser } from '../../common/auth/current-user.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { IdempotencyInterceptor } from '../../common/idempotency/idempotency.interceptor.js';
import { body, noQuery, UuidPipe } from '../../common/validation/zod.pipe.js';
import { FieldLinksService } from './field-links.service.js';

/** `/field-links`: list (filters), get, create (body names the link), note update, delete. */
export class FieldLinksController extends CrudController(fieldLinkResource, FieldLinksService) {}

/** The original's routes under the dataset link (AIDE v2 §2.4.13). */
@Controller('api/v1/dataset-links/:id/field-links')
export class LinkFieldLinksController {
  constructor(private readonly fieldLinks: FieldLinksService) {}

  @Get()
  list(@Param('id', UuidPipe) id: string, @Query(noQuery) _query: object): Promise<FieldLink[]> {
    return this.fieldLinks.listOfLink(id);
  }

  @Post()
  @UseInterceptors(IdempotencyInterceptor)
  async create(
    @Param('id', UuidPipe) id: string,
    @Body(body(CreateLinkFieldLinkSchema)) input: CreateLinkFieldLink,
    @CurrentUser() user: AuthUser,
  ): Promise<FieldLink> {
    const [row] = await this.fieldLinks.createInLink(id, [input], user);
    return row;
  }

  /** All or nothing; duplicates inside the array are refused (409) before anything is written. */
  @Post('bulk')
  @UseInterceptors(IdempotencyInterceptor)
  bulk(
    @Param('id', UuidPipe) id: string,
    @Body(body(BulkFieldLinksSchema)) items: CreateLinkFieldLink[],
    @CurrentUser() user: AuthUser,
  ): Promise<FieldLink[]> {
    return this.fieldLinks.createInLink(id, items, user);
  }
}
