import { Module } from '@nestjs/common';
import { CompatRepository } from './compat.repository.js';
import { DatasetLinkCompatService } from './dataset-link-compat.service.js';
import { DatasetLinksController } from './dataset-links.controller.js';
import { DatasetLinksService } from './dataset-links.service.js';
import { RenderSqlService } from './render-sql.service.js';
import { SchemaVersionImpactController } from './schema-version-impact.controller.js';
import { SchemaVersionImpactService } from './schema-version-impact.service.js';

@Module({
  controllers: [DatasetLinksController, SchemaVersionImpactController],
  providers: [
    DatasetLinksService,
    DatasetLinkCompatService,
    CompatRepository,
    SchemaVersionImpactService,
    RenderSqlService,
  ],
  exports: [DatasetLinkCompatService, CompatRepository],
})
export class DatasetLinksModule {}
