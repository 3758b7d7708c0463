import { Module } from '@nestjs/common';
import { DatasetSchemasController } from './dataset-schemas.controller.js';
import { DatasetSchemasService } from './dataset-schemas.service.js';

@Module({
  controllers: [DatasetSchemasController],
  providers: [DatasetSchemasService],
  exports: [DatasetSchemasService],
})
export class DatasetSchemasModule {}
