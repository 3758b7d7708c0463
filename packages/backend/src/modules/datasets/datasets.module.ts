import { Module } from '@nestjs/common';
import { DataflowsModule } from '../dataflows/dataflows.module.js';
import { DatasetsController } from './datasets.controller.js';
import { DatasetsService } from './datasets.service.js';

@Module({ imports: [DataflowsModule], controllers: [DatasetsController], providers: [DatasetsService] })
export class DatasetsModule {}
