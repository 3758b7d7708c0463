import { Module } from '@nestjs/common';
import { EnginesController } from './engines.controller.js';
import { EnginesService } from './engines.service.js';

@Module({ controllers: [EnginesController], providers: [EnginesService] })
export class EnginesModule {}
