import { type FieldClassification, fieldClassificationResource } from '@aide/schemas';
import { Get, Param, Query } from '@nestjs/common';
import { CrudController } from '../../common/crud/crud-controller.js';
import { noQuery, UuidPipe } from '../../common/validation/zod.pipe.js';
import { FieldClassificationsService } from './field-classifications.service.js';

export class FieldClassificationsController extends CrudController(
  fieldClassificationResource,
  FieldClassificationsService,
) {
  constructor(private readonly classifications: FieldClassificationsService) {
    super(classifications);
  }

  @Get('current/:fieldId')
  current(
    @Param('fieldId', UuidPipe) fieldId: string,
    @Query(noQuery) _query: object,
  ): Promise<FieldClassification> {
    return this.classifications.currentOfField(fieldId);
  }

  @Get('by-dataset/:datasetId/current')
  currentOfDataset(
    @Param('datasetId', UuidPipe) datasetId: string,
    @Query(noQuery) _query: object,
  ): Promise<FieldClassification[]> {
    return this.classifications.currentOfDataset(datasetId);
  }
}
