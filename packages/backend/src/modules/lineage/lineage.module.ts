import { Module } from '@nestjs/common';
import { LineageGraphRepository } from './lineage-graph.repository.js';
import { LineageController } from './lineage.controller.js';
import { LineageService } from './lineage.service.js';

@Module({ controllers: [LineageController], providers: [LineageService, LineageGraphRepository] })
export class LineageModule {}
