import { Module } from '@nestjs/common';
import { DatasetLinksController } from './dataset-links.controller.js';
import { DatasetLinksService } from './dataset-links.service.js';

@Module({ controllers: [DatasetLinksController], providers: [DatasetLinksService] })
export class DatasetLinksModule {}
