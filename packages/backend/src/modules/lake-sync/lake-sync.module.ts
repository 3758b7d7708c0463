import { Module } from '@nestjs/common';
import { CastRulesModule } from '../cast-rules/cast-rules.module.js';
import { DataTypesModule } from '../data-types/data-types.module.js';
import { DatasetLinksModule } from '../dataset-links/dataset-links.module.js';
import { DatasetSchemasModule } from '../dataset-schemas/dataset-schemas.module.js';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { FieldLinksModule } from '../field-links/field-links.module.js';
import { SchemaVersionsModule } from '../schema-versions/schema-versions.module.js';
import { TechFieldTemplatesModule } from '../tech-field-templates/tech-field-templates.module.js';
import { TypeInstancesModule } from '../type-instances/type-instances.module.js';
import { LakeColumns } from './lake-columns.js';
import { LakeSyncController } from './lake-sync.controller.js';
import { LakeSyncRepository } from './lake-sync.repository.js';
import { LakeSyncService } from './lake-sync.service.js';
import { LakeTableWriter } from './lake-table-writer.js';

@Module({
  imports: [
    DatasetsModule,
    DatasetSchemasModule,
    DataTypesModule,
    CastRulesModule,
    TypeInstancesModule,
    SchemaVersionsModule,
    TechFieldTemplatesModule,
    DatasetLinksModule,
    FieldLinksModule,
  ],
  controllers: [LakeSyncController],
  providers: [LakeSyncService, LakeSyncRepository, LakeColumns, LakeTableWriter],
})
export class LakeSyncModule {}
