import { Module } from '@nestjs/common';
import { LineageObservationsController } from './lineage-observations.controller.js';
import { LineageObservationsRecorder } from './lineage-observations.recorder.js';
import { LineageObservationsRepository } from './lineage-observations.repository.js';
import { LineageObservationsService } from './lineage-observations.service.js';

/**
 * What the OpenLineage intake observes (ADR 0054): the recorder the intake calls in its transaction
 * (exported to `LineageModule`), and the reads.
 */
@Module({
  controllers: [LineageObservationsController],
  providers: [LineageObservationsRepository, LineageObservationsRecorder, LineageObservationsService],
  exports: [LineageObservationsRepository, LineageObservationsRecorder],
})
export class LineageObservationsModule {}
