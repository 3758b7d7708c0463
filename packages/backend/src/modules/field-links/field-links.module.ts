import { Module } from '@nestjs/common';
import { FieldLinksController, LinkFieldLinksController } from './field-links.controller.js';
import { FieldLinksService } from './field-links.service.js';

@Module({ controllers: [FieldLinksController, LinkFieldLinksController], providers: [FieldLinksService] })
export class FieldLinksModule {}
