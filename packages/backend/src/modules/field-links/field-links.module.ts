import { Module } from '@nestjs/common';
import { FieldLinksController, LinkFieldLinksController } from './field-links.controller.js';
import { FieldLinkBatch } from './field-link-batch.js';
import { FieldLinksService } from './field-links.service.js';
import { FieldLinksRepository } from './field-links.repository.js';
import { DatasetLinksModule } from '../dataset-links/dataset-links.module.js';
import { FieldsModule } from '../fields/fields.module.js';

@Module({
  imports: [DatasetLinksModule, FieldsModule],
  controllers: [FieldLinksController, LinkFieldLinksController],
  providers: [FieldLinksRepository, FieldLinksService, FieldLinkBatch],
  exports: [FieldLinkBatch],
})
export class FieldLinksModule {}
