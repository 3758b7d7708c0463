import { Module } from '@nestjs/common';
import { CompatRepository } from './compat.repository.js';
import { DataflowLineage } from './dataflow-lineage.js';
import { DatasetLinkBatch } from './dataset-link-batch.js';
import { DatasetLinkCompatService } from './dataset-link-compat.service.js';
import { DatasetLinksController } from './dataset-links.controller.js';
import { DatasetLinksService } from './dataset-links.service.js';
import { DatasetLinksRepository } from './dataset-links.repository.js';
import { DatasetLinksLookup } from './dataset-links.lookup.js';
import { RenderSqlService } from './render-sql.service.js';
import { SchemaVersionImpactController } from './schema-version-impact.controller.js';
import { SchemaVersionImpactService } from './schema-version-impact.service.js';
import { DataTypesModule } from '../data-types/data-types.module.js';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { DatasetSchemasModule } from '../dataset-schemas/dataset-schemas.module.js';
import { EnginesModule } from '../engines/engines.module.js';
import { TypeInstancesModule } from '../type-instances/type-instances.module.js';

@Module({
  imports: [DatasetsModule, DatasetSchemasModule, DataTypesModule, EnginesModule, TypeInstancesModule],
  controllers: [DatasetLinksController, SchemaVersionImpactController],
  providers: [
    DatasetLinksRepository,
    DatasetLinksLookup,
    DatasetLinksService,
    DatasetLinkCompatService,
    CompatRepository,
    DataflowLineage,
    DatasetLinkBatch,
    SchemaVersionImpactService,
    RenderSqlService,
  ],
  exports: [DatasetLinksLookup, DataflowLineage, DatasetLinkBatch, SchemaVersionImpactService],
})
export class DatasetLinksModule {}
