import { type BulkPublishResult, BulkPublishSchema } from '@aide/schemas';
import { Body, Controller, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import type { z } from 'zod';
import { type AuthUser, CurrentUser } from '../../common/auth/current-user.js';
import { IdempotencyInterceptor } from '../../common/idempotency/idempotency.interceptor.js';
import { BatchBodyPipe } from '../../common/validation/zod.pipe.js';
import { SchemaVersionsService } from './schema-versions.service.js';

/**
 * `POST /schema-versions/bulk`: many datasets' versions in one request, each atomic on its own and
 * checked against its base version; 200 with a result per item (written by any active user, as a
 * single publish is).
 */
@Controller('api/v1/schema-versions')
export class SchemaVersionsBulkController {
  constructor(private readonly versions: SchemaVersionsService) {}

  @Post('bulk')
  @HttpCode(200)
  @UseInterceptors(IdempotencyInterceptor)
  publishMany(
    @Body(new BatchBodyPipe(BulkPublishSchema)) body: z.output<typeof BulkPublishSchema>,
    @CurrentUser() user: AuthUser,
  ): Promise<BulkPublishResult> {
    return this.versions.publishMany(body.items, user);
  }
}
