import {
  type DatasetLineageGraph,
  type FieldLineageGraph,
  type LineageQuery,
  LineageQuerySchema,
} from '@aide/schemas';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { UuidPipe, ZodPipe } from '../../common/validation/zod.pipe.js';
import { LineageService } from './lineage.service.js';

const lineageQuery = new ZodPipe(LineageQuerySchema, 'query string');

/** The lineage graph (beyond the original): upstream / downstream / both, depth-limited, paged. */
@Controller('api/v1/lineage')
export class LineageController {
  constructor(private readonly lineage: LineageService) {}

  @Get('datasets/:id')
  datasets(
    @Param('id', UuidPipe) id: string,
    @Query(lineageQuery) query: LineageQuery,
  ): Promise<DatasetLineageGraph> {
    return this.lineage.datasets(id, query);
  }

  @Get('fields/:id')
  fields(
    @Param('id', UuidPipe) id: string,
    @Query(lineageQuery) query: LineageQuery,
  ): Promise<FieldLineageGraph> {
    return this.lineage.fields(id, query);
  }
}
