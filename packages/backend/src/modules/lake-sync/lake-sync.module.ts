import { Module } from '@nestjs/common';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { SchemaVersionsModule } from '../schema-versions/schema-versions.module.js';
import { TechFieldTemplatesModule } from '../tech-field-templates/tech-field-templates.module.js';
import { LakeSyncController } from './lake-sync.controller.js';
import { LakeSyncRepository } from './lake-sync.repository.js';
import { LakeSyncService } from './lake-sync.service.js';

@Module({
  imports: [DatasetsModule, SchemaVersionsModule, TechFieldTemplatesModule],
  controllers: [LakeSyncController],
  providers: [LakeSyncService, LakeSyncRepository],
})
export class LakeSyncModule {}
