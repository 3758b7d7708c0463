import { Module } from '@nestjs/common';
import { SystemKindsController } from './system-kinds.controller.js';
import { SystemKindsService } from './system-kinds.service.js';
import { SystemKindsRepository } from './system-kinds.repository.js';
import { SystemKindsLookup } from './system-kinds.lookup.js';

@Module({
  controllers: [SystemKindsController],
  providers: [SystemKindsRepository, SystemKindsLookup, SystemKindsService],
  exports: [SystemKindsLookup],
})
export class SystemKindsModule {}
