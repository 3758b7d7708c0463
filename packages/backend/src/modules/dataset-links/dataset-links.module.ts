import { Module } from '@nestjs/common';
import { CompatRepository } from './compat.repository.js';
import { DatasetLinkCompatService } from './dataset-link-compat.service.js';
import { DatasetLinksController } from './dataset-links.controller.js';
import { DatasetLinksService } from './dataset-links.service.js';

@Module({
  controllers: [DatasetLinksController],
  providers: [DatasetLinksService, DatasetLinkCompatService, CompatRepository],
})
export class DatasetLinksModule {}
