import { Module } from '@nestjs/common';
import { TechFieldTemplateApplyService } from './tech-field-template-apply.service.js';
import { TechFieldTemplatesController } from './tech-field-templates.controller.js';
import { TechFieldTemplatesService } from './tech-field-templates.service.js';
import { TechFieldTemplatesRepository } from './tech-field-templates.repository.js';
import { DatasetsModule } from '../datasets/datasets.module.js';
import { DataTypesModule } from '../data-types/data-types.module.js';
import { FieldsModule } from '../fields/fields.module.js';

@Module({
  imports: [DatasetsModule, DataTypesModule, FieldsModule],
  controllers: [TechFieldTemplatesController],
  providers: [TechFieldTemplatesRepository, TechFieldTemplatesService, TechFieldTemplateApplyService],
  exports: [TechFieldTemplatesService],
})
export class TechFieldTemplatesModule {}
