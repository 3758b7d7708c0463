import { Module } from '@nestjs/common';
import { DatasetSchemasController } from './dataset-schemas.controller.js';
import { DatasetSchemasService } from './dataset-schemas.service.js';
import { DatasetSchemasRepository } from './dataset-schemas.repository.js';
import { DatasetSchemasLookup } from './dataset-schemas.lookup.js';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { TypeInstancesModule } from '../type-instances/type-instances.module.js';

@Module({
  imports: [DatasetsModule, TypeInstancesModule],
  controllers: [DatasetSchemasController],
  providers: [DatasetSchemasRepository, DatasetSchemasLookup, DatasetSchemasService],
  exports: [DatasetSchemasLookup, DatasetSchemasRepository],
})
export class DatasetSchemasModule {}
