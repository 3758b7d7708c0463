import { Module } from '@nestjs/common';
import { FieldClassificationsController } from './field-classifications.controller.js';
import { FieldClassificationsService } from './field-classifications.service.js';

@Module({ controllers: [FieldClassificationsController], providers: [FieldClassificationsService] })
export class FieldClassificationsModule {}
