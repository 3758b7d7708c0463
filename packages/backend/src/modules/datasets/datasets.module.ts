import { Module } from '@nestjs/common';
import { DatasetsController } from './datasets.controller.js';
import { DatasetsService } from './datasets.service.js';
import { DatasetsRepository } from './datasets.repository.js';
import { DatasetsLookup } from './datasets.lookup.js';
import { SystemFlavorsModule } from '../system-flavors/system-flavors.module.js';
import { SystemsModule } from '../systems/systems.module.js';

@Module({
  imports: [SystemsModule, SystemFlavorsModule],
  controllers: [DatasetsController],
  providers: [DatasetsRepository, DatasetsLookup, DatasetsService],
  exports: [DatasetsLookup, DatasetsService],
})
export class DatasetsModule {}
