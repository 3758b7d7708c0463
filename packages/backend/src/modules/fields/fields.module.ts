import { Module } from '@nestjs/common';
import { FieldsController } from './fields.controller.js';
import { FieldsService } from './fields.service.js';
import { FieldsRepository } from './fields.repository.js';
import { FieldsLookup } from './fields.lookup.js';
import { DatasetsModule } from '../datasets/datasets.module.js';

@Module({
  imports: [DatasetsModule],
  controllers: [FieldsController],
  providers: [FieldsRepository, FieldsLookup, FieldsService],
  exports: [FieldsLookup, FieldsRepository],
})
export class FieldsModule {}
