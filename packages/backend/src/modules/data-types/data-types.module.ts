import { Module } from '@nestjs/common';
import { DataTypesController } from './data-types.controller.js';
import { DataTypesService } from './data-types.service.js';
import { DataTypesRepository } from './data-types.repository.js';
import { DataTypesLookup } from './data-types.lookup.js';
import { SystemFlavorsModule } from '../system-flavors/system-flavors.module.js';

@Module({
  imports: [SystemFlavorsModule],
  controllers: [DataTypesController],
  providers: [DataTypesRepository, DataTypesLookup, DataTypesService],
  exports: [DataTypesLookup],
})
export class DataTypesModule {}
