import { type Field, fieldResource, type FieldTree } from '@aide/schemas';
import { Get, Param, Query } from '@nestjs/common';
import { CrudController } from '../../common/crud/crud-controller.js';
import { noQuery, UuidPipe } from '../../common/validation/zod.pipe.js';
import { FieldsService } from './fields.service.js';

export class FieldsController extends CrudController(fieldResource, FieldsService) {
  constructor(private readonly fields: FieldsService) {
    super(fields);
  }

  /** The dataset's fields as a tree, built from one query whatever the depth. */
  @Get('tree/:datasetId')
  tree(
    @Param('datasetId', UuidPipe) datasetId: string,
    @Query(noQuery) _query: object,
  ): Promise<FieldTree[]> {
    return this.fields.tree(datasetId);
  }

  @Get(':id/children')
  children(@Param('id', UuidPipe) id: string, @Query(noQuery) _query: object): Promise<Field[]> {
    return this.fields.children(id);
  }
}
