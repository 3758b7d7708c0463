import { Module } from '@nestjs/common';
import { FieldClassificationsController } from './field-classifications.controller.js';
import { FieldClassificationsService } from './field-classifications.service.js';
import { FieldClassificationsRepository } from './field-classifications.repository.js';
import { FieldsModule } from '../fields/fields.module.js';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { UsersModule } from '../users/users.module.js';

@Module({
  imports: [FieldsModule, DatasetsModule, UsersModule],
  controllers: [FieldClassificationsController],
  providers: [FieldClassificationsRepository, FieldClassificationsService],
})
export class FieldClassificationsModule {}
