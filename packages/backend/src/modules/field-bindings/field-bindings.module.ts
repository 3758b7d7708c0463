import { Module } from '@nestjs/common';
import { FieldBindingsController } from './field-bindings.controller.js';
import { FieldBindingsService } from './field-bindings.service.js';
import { FieldBindingsRepository } from './field-bindings.repository.js';
import { DatasetSchemasModule } from '../dataset-schemas/dataset-schemas.module.js';
import { FieldsModule } from '../fields/fields.module.js';
import { TypeInstancesModule } from '../type-instances/type-instances.module.js';
import { DatasetsModule } from '../datasets/datasets.module.js';

@Module({
  imports: [DatasetSchemasModule, FieldsModule, TypeInstancesModule, DatasetsModule],
  controllers: [FieldBindingsController],
  providers: [FieldBindingsRepository, FieldBindingsService],
  exports: [FieldBindingsRepository],
})
export class FieldBindingsModule {}
