import { Module } from '@nestjs/common';
import { DatasetSchemasModule } from '../dataset-schemas/dataset-schemas.module.js';
import { TypeTreeWriter } from '../type-instances/type-tree.writer.js';
import { SchemaVersionsController } from './schema-versions.controller.js';
import { SchemaVersionsService } from './schema-versions.service.js';

@Module({
  imports: [DatasetSchemasModule],
  controllers: [SchemaVersionsController],
  providers: [SchemaVersionsService, TypeTreeWriter],
})
export class SchemaVersionsModule {}
