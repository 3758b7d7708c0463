import { Module } from '@nestjs/common';
import { DatasetLinksModule } from '../dataset-links/dataset-links.module.js';
import { FieldLinksModule } from '../field-links/field-links.module.js';
import { FieldsModule } from '../fields/fields.module.js';
import { LineageRunsModule } from './runs/lineage-runs.module.js';
import { LineageObservationsModule } from './observations/lineage-observations.module.js';
import { LineageGraphRepository } from './lineage-graph.repository.js';
import { LineageController } from './lineage.controller.js';
import { LineageService } from './lineage.service.js';
import { OpenLineageDatasetLinks } from './openlineage-dataset-links.js';
import { OpenLineageFieldLinks } from './openlineage-field-links.js';
import { OpenLineageRepository } from './openlineage.repository.js';
import { OpenLineageService } from './openlineage.service.js';

@Module({
  imports: [DatasetLinksModule, FieldLinksModule, FieldsModule, LineageObservationsModule, LineageRunsModule],
  controllers: [LineageController],
  providers: [
    LineageService,
    LineageGraphRepository,
    OpenLineageService,
    OpenLineageRepository,
    OpenLineageDatasetLinks,
    OpenLineageFieldLinks,
  ],
  // The replay of stored events (ADR 0054) goes through the intake's own path.
  exports: [OpenLineageService, OpenLineageRepository],
})
export class LineageModule {}
