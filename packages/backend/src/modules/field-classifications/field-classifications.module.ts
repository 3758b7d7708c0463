import { Module } from '@nestjs/common';
import { FieldClassificationsController } from './field-classifications.controller.js';
import { FieldClassificationsService } from './field-classifications.service.js';
import { FieldClassificationsRepository } from './field-classifications.repository.js';
import { FieldsModule } from '../fields/fields.module.js';
import { DatasetsModule } from '../datasets/datasets.module.js';

@Module({
  imports: [FieldsModule, DatasetsModule],
  controllers: [FieldClassificationsController],
  providers: [FieldClassificationsRepository, FieldClassificationsService],
})
export class FieldClassificationsModule {}
