import { type BulkCreateDatasetsResult, BulkCreateDatasetsSchema, datasetResource } from '@aide/schemas';
import { Body, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import type { z } from 'zod';
import { type AuthUser, CurrentUser } from '../../common/auth/current-user.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { IdempotencyInterceptor } from '../../common/idempotency/idempotency.interceptor.js';
import { BatchBodyPipe } from '../../common/validation/zod.pipe.js';
import { DatasetsService } from './datasets.service.js';

export class DatasetsController extends CrudController(datasetResource, DatasetsService) {
  /**
   * `POST /datasets/bulk`: each dataset created on its own, 200 with a result per item (unlike
   * `/batch`, all or nothing). Any active user, as for a single create.
   */
  @Post('bulk')
  @HttpCode(200)
  @UseInterceptors(IdempotencyInterceptor)
  createEach(
    @Body(new BatchBodyPipe(BulkCreateDatasetsSchema)) body: z.output<typeof BulkCreateDatasetsSchema>,
    @CurrentUser() user: AuthUser,
  ): Promise<BulkCreateDatasetsResult> {
    return (this.service as DatasetsService).createEach(body.items, user);
  }
}
