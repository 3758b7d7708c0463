import { Module } from '@nestjs/common';
import { TechFieldTemplateApplyService } from './tech-field-template-apply.service.js';
import { TechFieldTemplatesController } from './tech-field-templates.controller.js';
import { TechFieldTemplatesService } from './tech-field-templates.service.js';

@Module({
  controllers: [TechFieldTemplatesController],
  providers: [TechFieldTemplatesService, TechFieldTemplateApplyService],
  exports: [TechFieldTemplatesService],
})
export class TechFieldTemplatesModule {}
