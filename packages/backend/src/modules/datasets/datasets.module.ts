import { Module } from '@nestjs/common';
import { DatasetsController } from './datasets.controller.js';
import { DatasetsService } from './datasets.service.js';

@Module({ controllers: [DatasetsController], providers: [DatasetsService], exports: [DatasetsService] })
export class DatasetsModule {}
