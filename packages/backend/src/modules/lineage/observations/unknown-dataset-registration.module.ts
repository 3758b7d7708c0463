import { Module } from '@nestjs/common';
import { DatasetsModule } from '../../datasets/datasets.module.js';
import { LineageModule } from '../lineage.module.js';
import { SchemaVersionsModule } from '../../schema-versions/schema-versions.module.js';
import { LineageObservationsModule } from './lineage-observations.module.js';
import { UnknownDatasetRegistrationController } from './unknown-dataset-registration.controller.js';
import { UnknownDatasetRegistrationService } from './unknown-dataset-registration.service.js';

/**
 * Registration of unknown datasets and the replay of stored events (ADR 0054). A module of its own: it
 * uses the intake (`LineageModule`), which uses the recorder (`LineageObservationsModule`).
 */
@Module({
  imports: [LineageModule, LineageObservationsModule, DatasetsModule, SchemaVersionsModule],
  controllers: [UnknownDatasetRegistrationController],
  providers: [UnknownDatasetRegistrationService],
})
export class UnknownDatasetRegistrationModule {}
