import { Module } from '@nestjs/common';
import { EnginesController } from './engines.controller.js';
import { EnginesService } from './engines.service.js';
import { EnginesRepository } from './engines.repository.js';
import { EnginesLookup } from './engines.lookup.js';

@Module({
  controllers: [EnginesController],
  providers: [EnginesRepository, EnginesLookup, EnginesService],
  exports: [EnginesLookup],
})
export class EnginesModule {}
