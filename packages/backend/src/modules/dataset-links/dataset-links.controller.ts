import {
  type DatasetLinkCompatQuery,
  DatasetLinkCompatQuerySchema,
  type DatasetLinkCompatReport,
  type DatasetLinkCompatSummary,
  datasetLinkResource,
  type Page,
} from '@aide/schemas';
import { Get, Inject, Param, Query } from '@nestjs/common';
import { CrudController } from '../../common/crud/crud-controller.js';
import { noQuery, UuidPipe, ZodPipe } from '../../common/validation/zod.pipe.js';
import { DatasetLinkCompatService } from './dataset-link-compat.service.js';
import { DatasetLinksService } from './dataset-links.service.js';

const compatQuery = new ZodPipe(DatasetLinkCompatQuerySchema, 'query string');

export class DatasetLinksController extends CrudController(datasetLinkResource, DatasetLinksService) {
  // Explicit tokens: an undecorated subclass gets no parameter types of its own.
  constructor(
    @Inject(DatasetLinksService) links: DatasetLinksService,
    @Inject(DatasetLinkCompatService) private readonly compat: DatasetLinkCompatService,
  ) {
    super(links);
  }

  /** The ETL pre-flight of every active link, filtered (a dashboard polls `?status=error`). */
  @Get('compat')
  summaries(@Query(compatQuery) query: DatasetLinkCompatQuery): Promise<Page<DatasetLinkCompatSummary>> {
    return this.compat.summaries(query);
  }

  /** The ETL pre-flight of one link: pin drift, per-field issues and severities, status. */
  @Get(':id/compat')
  report(
    @Param('id', UuidPipe) id: string,
    @Query(noQuery) _query: object,
  ): Promise<DatasetLinkCompatReport> {
    return this.compat.report(id);
  }
}
