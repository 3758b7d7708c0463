import { type SystemSnapshotPage, SystemSnapshotQuerySchema } from '@aide/schemas';
import { Controller, Get, Param, Query } from '@nestjs/common';
import type { z } from 'zod';
import { UuidPipe, ZodPipe } from '../../common/validation/zod.pipe.js';
import { SystemSnapshotService } from './system-snapshot.service.js';

/** `GET /systems/{id}/snapshot`: the registry side of a crawl, a page of datasets at a time. */
@Controller('api/v1/systems/:id/snapshot')
export class SystemSnapshotController {
  constructor(private readonly snapshots: SystemSnapshotService) {}

  @Get()
  page(
    @Param('id', UuidPipe) id: string,
    @Query(new ZodPipe(SystemSnapshotQuerySchema, 'query string'))
    query: z.output<typeof SystemSnapshotQuerySchema>,
  ): Promise<SystemSnapshotPage> {
    return this.snapshots.page(id, query);
  }
}
