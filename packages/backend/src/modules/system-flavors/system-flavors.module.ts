import { Module } from '@nestjs/common';
import { SystemFlavorsController } from './system-flavors.controller.js';
import { SystemFlavorsService } from './system-flavors.service.js';
import { SystemFlavorsRepository } from './system-flavors.repository.js';
import { SystemFlavorsLookup } from './system-flavors.lookup.js';
import { SystemKindsModule } from '../system-kinds/system-kinds.module.js';

@Module({
  imports: [SystemKindsModule],
  controllers: [SystemFlavorsController],
  providers: [SystemFlavorsRepository, SystemFlavorsLookup, SystemFlavorsService],
  exports: [SystemFlavorsLookup],
})
export class SystemFlavorsModule {}
